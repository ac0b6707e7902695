import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen } from '@testing-library/react';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DobErrorDialog } from '../screens/review-details/dob-error-dialog';
import { activateLanguage } from './locale';

afterEach(cleanup);
afterAll(() => activateLanguage('en'));

describe('the date-of-birth dialog\'s hint', () => {
  // The spec's hint sent customers to "the Travel Details", which is nothing they can click
  // while the dialog is open (issue 21): it names the dialog's own button.
  it.each(['en', 'ar'] as const)('issue 21: names the button the dialog shows (%s)', async (lang) => {
    await activateLanguage(lang);
    render(
      <I18nProvider i18n={i18n}>
        <MantineProvider env="test">
          <DobErrorDialog opened message="The date of birth is not the one quoted." onUpdate={() => undefined} onClose={() => undefined} />
        </MantineProvider>
      </I18nProvider>,
    );
    const button = (await screen.findByTestId('dob-update-details')).textContent ?? '';
    expect(button).not.toBe('');
    const hint = screen.getByText((text) => text.includes(lang === 'ar' ? 'تاريخ الميلاد' : 'date of birth') && text !== 'The date of birth is not the one quoted.');
    expect(hint.textContent).toContain(lang === 'ar' ? `«${button}»` : button);
  });
});
