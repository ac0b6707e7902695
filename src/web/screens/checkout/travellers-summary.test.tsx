import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { leadTraveller } from '../../../../machines/review/review.model';
import type { ReviewPlan } from '../../../contract/traveller-review.rules';
import { activateLanguage } from '../../i18n/locale';
import { checkoutTravellerFields } from './checkout-traveller-fields';
import { TravellersSummary } from './travellers-summary';

/**
 * Issue 17 item 12: checkout reads back the traveller fields spec §2 names for the insurer, not
 * every field review collected (provider 7 showed Gender, provider 12 gender, residence and
 * nationality).
 */

beforeAll(() => activateLanguage('en'));
afterEach(cleanup);

const plan = (providerId: number, isApiPlan: 0 | 1 = 1): ReviewPlan => ({ providerId, isApiPlan, isFamily: true, sourceId: 422 });

/** Two saved travellers, with every review field filled, as get-personal-details answers them. */
const TRAVELLERS = [0, 1].map((index) => ({
  ...leadTraveller(index, true),
  gender_text: 'Female',
  relationship_type_text: index === 0 ? 'Principal' : 'Spouse',
  country_text: 'Lebanon',
  nationality_text: 'Lebanon',
}));

/** The labels of each traveller's facts, in order. */
function labelsShown(forPlan: ReviewPlan): string[][] {
  render(
    <I18nProvider i18n={i18n}>
      <MantineProvider env="test">
        <TravellersSummary travellers={TRAVELLERS} plan={forPlan} lang="en" />
      </MantineProvider>
    </I18nProvider>,
  );
  return screen.getAllByTestId('checkout-traveller').map((traveller) =>
    Array.from(traveller.querySelectorAll('dt')).map((term) => term.textContent ?? ''),
  );
}

describe('checkoutTravellerFields (spec §2 /checkout)', () => {
  it('provider 7: passport, residence and nationality; no gender', () => {
    expect(checkoutTravellerFields(plan(7), 0)).toEqual(['passport', 'residence', 'nationality']);
    expect(checkoutTravellerFields(plan(7), 1)).toEqual(['passport', 'residence', 'nationality']);
  });

  it('provider 3: gender, relationship after the principal, residence, nationality and passport', () => {
    expect(checkoutTravellerFields(plan(3), 0)).toEqual(['passport', 'gender', 'residence', 'nationality']);
    expect(checkoutTravellerFields(plan(3), 1)).toEqual(['passport', 'gender', 'relationship', 'residence', 'nationality']);
  });

  it('a plan not issued through the API (is_api_plan 0): residence, nationality and passport, whatever the insurer', () => {
    expect(checkoutTravellerFields(plan(12, 0), 0)).toEqual(['passport', 'residence', 'nationality']);
    expect(checkoutTravellerFields(plan(1000, 0), 1)).toEqual(['passport', 'residence', 'nationality']);
  });

  it('provider 1000: the passport only; another API insurer (12): nothing beyond name and date of birth', () => {
    expect(checkoutTravellerFields(plan(1000), 0)).toEqual(['passport']);
    expect(checkoutTravellerFields(plan(12), 0)).toEqual([]);
    expect(checkoutTravellerFields(plan(12), 1)).toEqual([]);
  });
});

describe('the checkout travellers summary shows the spec §2 fields per provider', () => {
  it('provider 7 shows no Gender', () => {
    expect(labelsShown(plan(7))).toEqual([
      ['Date of birth', 'Passport number', 'Country of residence', 'Nationality'],
      ['Date of birth', 'Passport number', 'Country of residence', 'Nationality'],
    ]);
  });

  it('provider 3 shows gender, and the relationship of the travellers after the principal', () => {
    expect(labelsShown(plan(3))).toEqual([
      ['Date of birth', 'Passport number', 'Gender', 'Country of residence', 'Nationality'],
      ['Date of birth', 'Passport number', 'Gender', 'Relationship', 'Country of residence', 'Nationality'],
    ]);
  });

  it('provider 12 (an API plan) shows no gender, residence or nationality', () => {
    expect(labelsShown(plan(12))).toEqual([['Date of birth'], ['Date of birth']]);
  });

  it('provider 1000 shows the passport; a non-API plan residence, nationality and passport', () => {
    expect(labelsShown(plan(1000))).toEqual([
      ['Date of birth', 'Passport number'],
      ['Date of birth', 'Passport number'],
    ]);
    cleanup();
    expect(labelsShown(plan(12, 0))[0]).toEqual(['Date of birth', 'Passport number', 'Country of residence', 'Nationality']);
  });
});
