import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { DirectionProvider, MantineProvider } from '@mantine/core';
import { cleanup, render, screen } from '@testing-library/react';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DateField } from '../screens/traveller-details/form/date-field';
import { activateLanguage } from './locale';

afterEach(cleanup);
afterAll(() => activateLanguage('en'));

/** The placeholder of an empty date field in `lang`. */
async function placeholderIn(lang: 'en' | 'ar'): Promise<string> {
  await activateLanguage(lang);
  const dir = lang === 'ar' ? 'rtl' : 'ltr';
  render(
    <I18nProvider i18n={i18n}>
      <DirectionProvider initialDirection={dir} detectDirection={false}>
        <MantineProvider env="test">
          <DateField label="Start date" value={null} onChange={() => undefined} />
        </MantineProvider>
      </DirectionProvider>
    </I18nProvider>,
  );
  return screen.getByRole('textbox', { name: /Start date/ }).getAttribute('placeholder') ?? '';
}

describe('the date field\'s placeholder', () => {
  // Arabic reads right to left but dates are typed day first from the left (issue 21): the
  // example's digits are one left-to-right run, after «مثال:», which stays on the right.
  it('issue 21: shows an Arabic example in the order the digits are typed, «مثال:» first and the date one left-to-right run', async () => {
    expect(await placeholderIn('ar')).toBe('مثال: \u206625\u200e/\u200e12\u200e/\u200e1990\u2069');
  });

  it('issue 21: keeps the English format DD/MM/YYYY as one left-to-right run', async () => {
    expect(await placeholderIn('en')).toBe('\u2066DD\u200e/\u200eMM\u200e/\u200eYYYY\u2069');
  });
});
