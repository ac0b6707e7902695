import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { DirectionProvider, MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { activateLanguage } from '../../../i18n/locale';
import { TravelDetailsForm } from '../travel-details-form';
import { blankValues } from '../../../../../machines/travel-details/travel-details.payload';
import { EMPTY_PREFILL } from '../../../../../machines/travel-details/travel-details.model';
import type { TravelDetailsReference } from '../../../../../machines/travel-details/travel-details.types';

/**
 * A key typed in the travel details form draws its own section, not the whole form (issue 35:
 * typing the full name drew the trip and travellers sections at each key, with the destinations
 * list and the date fields). Each section is counted as it is drawn, the real one inside.
 */

const drawn = vi.hoisted(() => ({ trip: 0, travellers: 0, contact: 0 }));

vi.mock('./trip-section', async (importOriginal) => {
  const real = await importOriginal<typeof import('./trip-section')>();
  return { ...real, TripSection: (props: Parameters<typeof real.TripSection>[0]) => (drawn.trip++, real.TripSection(props)) };
});
vi.mock('./travellers-section', async (importOriginal) => {
  const real = await importOriginal<typeof import('./travellers-section')>();
  return { ...real, TravellersSection: (props: Parameters<typeof real.TravellersSection>[0]) => (drawn.travellers++, real.TravellersSection(props)) };
});
vi.mock('./contact-section', async (importOriginal) => {
  const real = await importOriginal<typeof import('./contact-section')>();
  return { ...real, ContactSection: (props: Parameters<typeof real.ContactSection>[0]) => (drawn.contact++, real.ContactSection(props)) };
});

const reference: TravelDetailsReference = {
  countries: [{ value: '250', label: 'France' }],
  phoneCodes: [{ value: '+961', label: '+961 Lebanon' }],
  maxTravellers: 8,
  familyChildMaxAge: 18,
};

function renderForm() {
  render(
    <I18nProvider i18n={i18n}>
      <DirectionProvider initialDirection="ltr" detectDirection={false}>
        <MantineProvider env="test">
          <TravelDetailsForm initialValues={blankValues(EMPTY_PREFILL)} reference={reference} today="2026-06-15" serverErrors={{}} submitting={false} onSubmit={() => {}} />
        </MantineProvider>
      </DirectionProvider>
    </I18nProvider>,
  );
}

/** Types `text` into an input key by key, as the change events of a person typing. */
function typeKeys(input: HTMLElement, text: string) {
  for (let end = 1; end <= text.length; end++) fireEvent.change(input, { target: { value: text.slice(0, end) } });
}

const count = () => ({ ...drawn });

beforeAll(async () => {
  await activateLanguage('en');
});
beforeEach(() => {
  Object.assign(drawn, { trip: 0, travellers: 0, contact: 0 });
});
afterEach(() => cleanup());

describe('the travel details form draws the section a key changes', () => {
  it('typing the full name draws the contact section at each key, and neither the trip nor the travellers section', () => {
    renderForm();
    const before = count();
    typeKeys(screen.getByRole('textbox', { name: /^Full name/ }), 'Rana');
    expect((screen.getByRole('textbox', { name: /^Full name/ }) as HTMLInputElement).value).toBe('Rana');
    expect(drawn.contact - before.contact).toBeGreaterThanOrEqual(4);
    expect(drawn.trip - before.trip).toBe(0);
    expect(drawn.travellers - before.travellers).toBe(0);
  });

  it('adding a traveller draws the travellers section, not the contact section', () => {
    renderForm();
    const before = count();
    fireEvent.click(screen.getByRole('button', { name: 'Add a traveller' }));
    expect(screen.getAllByRole('textbox', { name: /^Traveller \d/ })).toHaveLength(2);
    expect(drawn.travellers - before.travellers).toBeGreaterThanOrEqual(1);
    expect(drawn.contact - before.contact).toBe(0);
  });
});
