import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CheckoutTotals } from '../../../contract/checkout.endpoints';
import type { Language } from '../../../contract/endpoint';
import { activateLanguage } from '../../i18n/locale';
import { PriceSummary } from './price-summary';

/**
 * Issue 17 item 2 (RULINGS 26): the checkout price summary shows every line to the cent, so the
 * lines add up to the total the gateway charges. A family with add-ons and PHOENICIA20: whole
 * dollars read $48 + $45 − $10 + $9 + $2 against a total of $95.
 */

// 4 835 + 4 500 − 967 = 8 368; VAT 11 % = 920; stamp fee 200; total 9 488.
const TOTALS: CheckoutTotals = { plan_price: 4_835, addons_price: 4_500, discount: 967, subtotal: 8_368, vat_percent: 11, vat_amount: 920, stamp_fee: 200, total: 9_488 };

afterEach(cleanup);

const visible = (text: string | null) => (text ?? '').replace(/[\u2066-\u2069]/g, '');
const shown = (testId: string) => visible(screen.getByTestId(testId).textContent);
const cents = (text: string) => (text.startsWith('\u2212') ? -1 : 1) * Math.round(Number(text.replace(/[^\d.]/g, '')) * 100);

function renderSummary(lang: Language) {
  render(
    <I18nProvider i18n={i18n}>
      <MantineProvider env="test">
        <PriceSummary totals={TOTALS} lang={lang} />
      </MantineProvider>
    </I18nProvider>,
  );
}

describe.each(['en', 'ar'] as const)('the checkout price summary in %s', (lang) => {
  beforeAll(() => activateLanguage(lang));
  afterAll(() => activateLanguage('en'));

  it('shows every line and the total to the cent, with Western digits, and the lines add up to the total', () => {
    renderSummary(lang);
    const lines = ['price-plan', 'price-addons', 'price-discount', 'price-vat', 'price-stamp-fee'].map(shown);
    expect(lines).toEqual(['$48.35', '$45.00', '\u2212$9.67', '$9.20', '$2.00']);
    expect(shown('price-total')).toBe('$94.88');
    expect(lines.map(cents).reduce((sum, value) => sum + value, 0)).toBe(cents(shown('price-total')));
  });
});
