import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { reviewData } from '../../../../machines/review/review.model';
import { MASTER_LISTS } from '../../../server/db/seed-data';
import { mountTravellerStep } from '../../../../tests/support/mount-traveller-step';
import { activateLanguage } from '../../i18n/locale';

/**
 * Issue 38: the traveller's Title list offers the titles each language's customers expect, a
 * child's included (Miss, Master, a girl's title), as get-travel-configs gives them from the seed,
 * under the label a Lebanese form uses (اللقب).
 */

afterEach(() => cleanup());

/** The seeded titles as the travel configs' dropdown gives them in `lang`. */
const titleOptions = (lang: 'en' | 'ar') => MASTER_LISTS.prefex.map((item) => ({ value: String(item.id), label: lang === 'ar' ? item.ar : item.en }));

describe("the traveller's Title list", () => {
  it.each([
    ['en', 'Title', ['Mr', 'Mrs', 'Ms', 'Miss', 'Dr', 'Master', 'Miss (child)']],
    ['ar', 'اللقب', ['السيد', 'السيدة', 'السيدة / الآنسة', 'الآنسة', 'د.', 'الطفل', 'الطفلة']],
  ] as const)('in %s, named %j, lists %j', async (lang, label, titles) => {
    await activateLanguage(lang);
    const data = reviewData();
    await mountTravellerStep({ ...data, options: { ...data.options, titles: titleOptions(lang) } });
    const select = within(await screen.findByTestId('traveller-form')).getByRole('combobox', { name: label });
    fireEvent.click(select);
    const list = document.getElementById(select.getAttribute('aria-controls') ?? '');
    expect(within(list!).getAllByRole('option', { hidden: true }).map((option) => option.textContent)).toEqual(titles);
  });
});
