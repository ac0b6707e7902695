import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { message } from '../http/messages';
import { CARD_SCRIPT, cardPageHtml, RETURN_SCRIPT, returnPageHtml, sandboxErrorPageHtml } from './sandbox-pages';

const request = {
  command: 'PURCHASE',
  merchant_reference: 'SAF1-ABC-DEF',
  amount: '14763',
  currency: 'USD',
  language: 'en',
  customer_email: '"><img src=x onerror=alert(1)>',
  return_url: 'http://safar.test/payments/aps/return',
  signature: 'abc',
};

describe('the sandbox card page', () => {
  it('says it is the sandbox in its title and banner, names the test card, and shows the reference and exact amount', () => {
    for (const lang of ['en', 'ar'] as const) {
      const html = cardPageHtml({ request: { ...request, language: lang }, action: '/sandbox/aps/pay/abc' });
      expect(html).toMatch(new RegExp(`<title>[^<]*${message('sandbox_title', lang)}</title>`));
      expect(html).toContain(message('sandbox_banner_title', lang));
      expect(html).toContain('4005 5500 0000 0001');
      expect(html).toContain('USD 147.63');
      expect(html).toContain('SAF1-ABC-DEF');
      expect(html).toContain(lang === 'ar' ? 'dir="rtl"' : 'dir="ltr"');
    }
    expect(message('sandbox_title', 'en')).toMatch(/sandbox/i);
  });

  it('hints the expiry\'s format in the page\'s language: MM/YY, and «شهر/سنة» in Arabic (issue 38)', () => {
    const expiry = (lang: 'en' | 'ar') => /<input[^>]*id="f-expiry_date"[^>]*>/.exec(cardPageHtml({ request: { ...request, language: lang }, action: '/sandbox/aps/pay/abc' }))![0];
    expect(expiry('en')).toContain('placeholder="MM/YY"');
    expect(expiry('ar')).toContain('placeholder="شهر/سنة"');
    expect(expiry('ar')).not.toContain('MM/YY');
  });

  it('labels every card field, posts to its session\'s own address without carrying the request, and has Pay and Cancel', () => {
    const html = cardPageHtml({ request, action: '/sandbox/aps/pay/a"b' });
    for (const name of ['card_number', 'expiry_date', 'card_security_code', 'card_holder_name']) {
      expect(html).toContain(`<label for="f-${name}">`);
      expect(html).toContain(`id="f-${name}" name="${name}"`);
    }
    expect(html).toContain('inputmode="numeric" autocomplete="cc-number"');
    // Post/Redirect/Get (issue 17 item 9): the request stays with the sandbox, under the session id.
    expect(html).toContain('<form id="aps-card" method="post" action="/sandbox/aps/pay/a&quot;b" novalidate>');
    expect(html).toContain('<script src="/sandbox/aps/card.js" defer></script>');
    expect(html).not.toContain('type="hidden"');
    expect(html).not.toContain('<img');
    expect(html).toContain('name="action" value="pay"');
    expect(html).toContain('name="action" value="cancel" class="secondary">');
  });

  it('after an error: the message next to its field, what was typed kept, the CVV never', () => {
    const html = cardPageHtml({
      request,
      action: '/sandbox/aps/pay/abc',
      values: { card_number: '4005 5500 0000 0002', expiry_date: '05/29', card_security_code: '123', card_holder_name: '<b>Rania</b>' },
      errors: { card_number: 'card_checksum' },
    });
    expect(html).toContain('value="4005 5500 0000 0002"');
    expect(html).toContain('aria-invalid="true" aria-describedby="f-card_number-error"');
    expect(html).toContain(`<p class="error" id="f-card_number-error">${message('sandbox_error_card_checksum', 'en')}</p>`);
    expect(html).toContain('value="&lt;b&gt;Rania&lt;/b&gt;"');
    expect(html).not.toContain('value="123"');
  });
});

describe('the sandbox card page\'s own validation (issue 21)', () => {
  it('turns the browser\'s validation off, so only the page\'s message shows, in its language; the fields stay marked required', () => {
    const html = cardPageHtml({ request: { ...request, language: 'ar' }, action: '/sandbox/aps/pay/abc' });
    expect(html).toMatch(/<form id="aps-card"[^>]* novalidate>/);
    expect(html).not.toContain('formnovalidate');
    expect(html.match(/<input type="text"[^>]* required /g)).toHaveLength(4);
    // No summary before anything was refused.
    expect(html).not.toContain('id="card-errors"');
  });

  it('opens with an error summary that takes focus and links each error, named by its field, to that field', () => {
    const html = cardPageHtml({ request: { ...request, language: 'ar' }, action: '/sandbox/aps/pay/abc', errors: { card_holder_name: 'required', card_number: 'card_checksum' } });
    const summary = /<div class="error-summary" id="card-errors"([^>]*)>([\s\S]*?)<\/div>/.exec(html);
    expect(summary?.[1]).toContain('tabindex="-1"');
    expect(summary?.[1]).toContain('autofocus');
    expect(summary?.[1]).toContain('aria-labelledby="card-errors-title"');
    expect(summary?.[2]).toContain(`<h2 id="card-errors-title">${message('sandbox_errors_summary', 'ar')}</h2>`);
    // In the form's order, each link's target an input of the page.
    const links = [...(summary?.[2] ?? '').matchAll(/<a href="#([^"]+)">([^<]*)<\/a>/g)].map((link) => [link[1], link[2]]);
    expect(links).toEqual([
      ['f-card_number', `${message('sandbox_card_number', 'ar')}: ${message('sandbox_error_card_checksum', 'ar')}`],
      ['f-card_holder_name', `${message('sandbox_card_holder', 'ar')}: ${message('sandbox_error_required', 'ar')}`],
    ]);
    for (const [id] of links) expect(html).toContain(`<input type="text" id="${id}"`);
    expect(html.match(/autofocus/g)).toHaveLength(1);
  });
});

describe('the sandbox return page', () => {
  it('posts the signed response to return_url through the external script, with a visible button; no inline script', () => {
    const html = returnPageHtml({ lang: 'en', returnUrl: 'http://safar.test/payments/aps/return', response: { status: '14', response_code: '14000', merchant_reference: 'R1', signature: 'x' } });
    expect(html).toContain('<form id="aps-return" method="post" action="http://safar.test/payments/aps/return">');
    expect(html).toContain('<script src="/sandbox/aps/return.js" defer></script>');
    expect(html.match(/<script\b[^>]*>/g)).toEqual(['<script src="/sandbox/aps/return.js" defer>']);
    expect(html).toContain(message('sandbox_return_button', 'en'));
    expect(html).toContain(message('sandbox_return_success', 'en'));
  });

  it('a second PURCHASE for a reference (00007): says the reference was used already, that no card page opens and nothing is charged, in both languages', () => {
    for (const lang of ['en', 'ar'] as const) {
      const response = { status: '00', response_code: '00007', response_message: 'Duplicate order number', merchant_reference: 'R1', signature: 'x' };
      const html = returnPageHtml({ lang, returnUrl: 'http://safar.test/payments/aps/return', response });
      expect(html).toContain(`<h1>${message('sandbox_return_duplicate', lang)}</h1>`);
      expect(html).toContain(message('sandbox_return_duplicate_text', lang));
      expect(html).not.toContain(message('sandbox_return_refused', lang));
      expect(html).toContain('00007 Duplicate order number');
    }
    // Other refusals keep their headings.
    const cancelled = returnPageHtml({ lang: 'en', returnUrl: 'http://x.test/r', response: { status: '00', response_code: '00072' } });
    expect(cancelled).toContain(message('sandbox_return_cancelled', 'en'));
    expect(cancelled).not.toContain(message('sandbox_return_duplicate_text', 'en'));
    expect(returnPageHtml({ lang: 'en', returnUrl: 'http://x.test/r', response: { status: '00', response_code: '00008' } })).toContain(message('sandbox_return_refused', 'en'));
  });

  it('an error page says sandbox too', () => {
    const html = sandboxErrorPageHtml({ lang: 'ar', reason: 'sandbox_no_return_url_text' });
    expect(html).toContain(message('sandbox_title', 'ar'));
    expect(html).toContain(message('sandbox_no_return_url_text', 'ar'));
    expect(html).not.toContain('<form');
  });
});

/** Runs a sandbox page script against a window that records its pageshow listeners and reloads. */
function pageshowReloads(script: string, persisted: boolean): number {
  const listeners: ((event: { persisted: boolean }) => void)[] = [];
  let reloads = 0;
  runInNewContext(script, {
    window: { addEventListener: (type: string, listener: (event: { persisted: boolean }) => void) => type === 'pageshow' && listeners.push(listener) },
    location: { reload: () => (reloads += 1), href: 'http://safar.test/sandbox/aps/pay/x' },
    document: { getElementById: () => null },
    performance: { getEntriesByType: () => [{ type: 'back_forward' }] },
  });
  listeners.forEach((listener) => listener({ persisted }));
  return reloads;
}

describe('the sandbox pages restored from the back/forward cache (issue 33 item 3)', () => {
  it('card.js reloads a restored card page, whose session may have been answered since; not a fresh one', () => {
    expect(pageshowReloads(CARD_SCRIPT, true)).toBe(1);
    expect(pageshowReloads(CARD_SCRIPT, false)).toBe(0);
  });

  it('return.js does not: a session is answered once, and a reload would post the answer again by itself', () => {
    expect(pageshowReloads(RETURN_SCRIPT, true)).toBe(0);
  });
});
