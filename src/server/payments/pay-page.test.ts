import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { PAY_PAGE_SCRIPT, PAY_PAGE_SCRIPT_PATH, payFormPageHtml, payMessagePageHtml } from './pay-page';
import { cardPageHtml, returnPageHtml } from './sandbox-pages';

/** A pending order whose every value is hostile markup: the page must print them as text. */
const HOSTILE = '<img src=x onerror=alert(1)>';
const view = {
  lang: 'en' as const,
  details: {
    reference: 'SAF1-ABC-DEF',
    insurer: `Insurer ${HOSTILE}`,
    plan: `Plan "quoted" & 'single'`,
    coverage: '</dd><script>alert(2)</script>',
    travellers: [HOSTILE, "Karim O'Brien"],
    startDate: '2026-04-01',
    endDate: '2026-04-10',
    totalCents: 123_456,
    // 1 000.00 + 300.00 − 100.00 + 132.00 + 2.56 = 1 234.56; an add-on named with markup.
    lines: [
      { kind: 'plan' as const, label: 'Plan premium', cents: 100_000 },
      { kind: 'addon' as const, label: `Winter ${HOSTILE}`, cents: 30_000 },
      { kind: 'discount' as const, label: 'Discount (coupon SAVE)', cents: 10_000 },
      { kind: 'vat' as const, label: 'VAT (11%)', cents: 13_200 },
      { kind: 'stamp' as const, label: 'Stamp fee', cents: 256 },
      { kind: 'total' as const, label: 'Total paid', cents: 123_456 },
    ],
  },
  form: {
    url: 'https://gateway.example/pay?a=1&b="2"',
    fields: { merchant_reference: 'SAF1-ABC-DEF', customer_email: '"><script>alert(3)</script>', signature: 'abc' },
  },
  sandbox: false,
};

describe('payFormPageHtml', () => {
  const html = payFormPageHtml(view);

  it('escapes every value from the database, in text and in attributes', () => {
    expect(html).not.toContain('<img');
    // The one script element is the page's own file (CSP script-src 'self'): nothing from the database became one.
    expect(html.match(/<script\b[^>]*>/gi)).toEqual([`<script src="${PAY_PAGE_SCRIPT_PATH}" defer>`]);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('Plan &quot;quoted&quot; &amp; &#39;single&#39;');
    expect(html).toContain('Karim O&#39;Brien');
    expect(html).toContain('action="https://gateway.example/pay?a=1&amp;b=&quot;2&quot;"');
    expect(html).toContain('<input type="hidden" name="customer_email" value="&quot;&gt;&lt;script&gt;alert(3)&lt;/script&gt;">');
  });

  it('shows the amount to the cent on the Pay button, as the gateway charges it (RULINGS 26), and the dates in the page language', () => {
    expect(html).not.toContain('$1,235');
    expect(html).toContain('Pay <bdi class="ltr">$1,234.56</bdi>');
    expect(html).toContain('1 Apr 2026 – 10 Apr 2026');
    const arabic = payFormPageHtml({ ...view, lang: 'ar', sandbox: true });
    expect(arabic).toContain('<html lang="ar" dir="rtl">');
    expect(arabic).toContain('1 نيسان 2026 – 10 نيسان 2026');
    expect(arabic).toContain('ادفع <bdi class="ltr">$1,234.56</bdi>');
  });

  it('lists the price lines to the cent before the total, a discount taken off, labels escaped', () => {
    const rows = [...html.matchAll(/<tr data-kind="(\w+)"><th scope="row">(.*?)<\/th><td><bdi class="ltr">(.*?)<\/bdi><\/td><\/tr>/g)].map((row) => [row[1], row[2], row[3]]);
    expect(rows).toEqual([
      ['plan', 'Plan premium', '$1,000.00'],
      ['addon', 'Winter &lt;img src=x onerror=alert(1)&gt;', '$300.00'],
      ['discount', 'Discount (coupon SAVE)', '\u2212$100.00'],
      ['vat', 'VAT (11%)', '$132.00'],
      ['stamp', 'Stamp fee', '$2.56'],
    ]);
  });
});

describe('payMessagePageHtml', () => {
  it('a page without a form, facts escaped', () => {
    const html = payMessagePageHtml({ lang: 'ar', title: 'pay_expired', text: 'pay_expired_text', facts: [['pay_reference', HOSTILE]] });
    expect(html).toContain('dir="rtl"');
    expect(html).not.toContain('<form');
    expect(html).not.toContain('<img');
  });
});

/**
 * The script every /pay page loads, run against the few browser objects it touches: the window's
 * pageshow event, location.reload, and the Pay form's submit event.
 */
function runPayPageScript(withForm: boolean) {
  const listeners: Record<string, ((event: unknown) => void)[]> = {};
  const formListeners: ((event: { preventDefault(): void }) => void)[] = [];
  const reloads: string[] = [];
  const form = { addEventListener: (type: string, listener: (event: { preventDefault(): void }) => void) => type === 'submit' && formListeners.push(listener) };
  runInNewContext(PAY_PAGE_SCRIPT, {
    window: { addEventListener: (type: string, listener: (event: unknown) => void) => (listeners[type] ??= []).push(listener) },
    location: { reload: () => reloads.push('reload') },
    document: { getElementById: (id: string) => (withForm && id === 'pay-form' ? form : null) },
  });
  const pageshow = (persisted: boolean) => listeners.pageshow?.forEach((listener) => listener({ persisted }));
  /** Submits the form; answers whether the submission went ahead. */
  const submit = () => {
    let prevented = false;
    formListeners.forEach((listener) => listener({ preventDefault: () => (prevented = true) }));
    return !prevented;
  };
  return { pageshow, submit, reloads };
}

describe('the script of the /pay pages (issue 33 item 3)', () => {
  it('reloads the page when the browser restores it from the back/forward cache, not on a fresh load', () => {
    for (const withForm of [true, false]) {
      const page = runPayPageScript(withForm);
      page.pageshow(false);
      expect(page.reloads).toEqual([]);
      page.pageshow(true);
      expect(page.reloads).toEqual(['reload']);
    }
  });

  it('posts the Pay form once: a second submit (a double click) is stopped', () => {
    const page = runPayPageScript(true);
    expect(page.submit()).toBe(true);
    expect(page.submit()).toBe(false);
    expect(page.submit()).toBe(false);
  });

  it('is loaded by the payment form page and by every message page, as a file of this origin', () => {
    const tag = `<script src="${PAY_PAGE_SCRIPT_PATH}" defer></script>`;
    expect(payFormPageHtml(view)).toContain(tag);
    expect(payFormPageHtml(view)).toContain('<form id="pay-form" method="post"');
    expect(payMessagePageHtml({ lang: 'en', title: 'pay_failed', text: 'pay_failed_text' })).toContain(tag);
  });
});

describe('payment references on the server pages (issue 21)', () => {
  it('keep a reference and an amount whole: left to right and on one line, on the payments page, its other pages and the sandbox', () => {
    const reference = 'SAF42-MFX3K2A1-7QZC0P4M8R2D';
    const unbroken = `<bdi class="ltr unbroken">${reference}</bdi>`;
    expect(payFormPageHtml({ ...view, lang: 'ar', details: { ...view.details, reference } })).toContain(unbroken);
    const failed = payMessagePageHtml({ lang: 'ar', title: 'pay_failed', text: 'pay_failed_text', facts: [['pay_order_amount', '$94.57'], ['pay_reference', reference]] });
    expect(failed).toContain(unbroken);
    expect(failed).toContain('<bdi class="ltr unbroken">$94.57</bdi>');
    expect(failed).toMatch(/\.unbroken \{ white-space: nowrap;/);
    const request = { merchant_reference: reference, amount: '9457', currency: 'USD', language: 'ar' };
    expect(cardPageHtml({ request, action: '/sandbox/aps/pay/x' })).toContain(unbroken);
    expect(returnPageHtml({ lang: 'ar', returnUrl: 'https://safar.test/r', response: { status: '13', merchant_reference: reference } })).toContain(unbroken);
  });
});
