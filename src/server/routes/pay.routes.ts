import { Hono, type Context } from 'hono';
import type { Language } from '../../contract/endpoint';
import type { AppConfig } from '../config';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/app-env';
import { errorFacts, RETRY_AFTER_SECONDS, type LogError } from '../http/error-handler';
import { formatDollars } from '../payments/page-shell';
import { PAY_PAGE_SCRIPT, PAY_PAGE_SCRIPT_PATH, payFormPageHtml, payMessagePageHtml, type PayMessageView } from '../payments/pay-page';
import { loadPaymentForm, type PaymentFormState } from '../payments/payment-form';

/**
 * The payments page, /pay/<merchant reference> (RULINGS 19): a plain page the server renders,
 * outside the SPA, in English or Arabic (`?lang=ar`, else the order's language). A pending order
 * shows what is bought and a Pay button that posts the signed Amazon Payment Services form
 * (payment-form.ts, the same fields payfort-data answers) to the gateway; a paid, failed or
 * expired order says so, with no form; an unknown reference is a 404 page and a database that
 * is away a 503 page. Whatever the address, the answer is an HTML page, never JSON and never a
 * 500, never cached and never indexed; each page loads PAY_PAGE_SCRIPT_PATH, which reloads it when
 * the browser restores it from its back/forward cache and posts the Pay form once. The reference
 * (12 random characters) is the page's key: the lead's uuid is not printed (RULINGS 24).
 */

export interface PayRoutesDeps {
  db: Db;
  config: AppConfig;
  now: () => number;
  logError: LogError;
}

const queryLang = (c: Context<AppEnv>): Language | null => {
  const lang = c.req.query('lang');
  return lang === 'ar' || lang === 'en' ? lang : null;
};
const headerLang = (c: Context<AppEnv>): Language => (c.req.header('accept-language')?.trim().toLowerCase().startsWith('ar') ? 'ar' : 'en');

function html(c: Context<AppEnv>, status: 200 | 404 | 410 | 503, body: string) {
  // The order's state changes when it is paid: never cached, by the browser or anything between.
  c.header('Cache-Control', 'no-store');
  c.header('X-Robots-Tag', 'noindex, nofollow');
  return c.html(body, status);
}

const notFound = (c: Context<AppEnv>) =>
  html(c, 404, payMessagePageHtml({ lang: queryLang(c) ?? headerLang(c), title: 'pay_not_found', text: 'pay_not_found_text' }));

const MESSAGE_PAGES: Record<'paid' | 'failed' | 'expired', Pick<PayMessageView, 'title' | 'text'>> = {
  paid: { title: 'pay_already_paid', text: 'pay_already_paid_text' },
  failed: { title: 'pay_failed', text: 'pay_failed_text' },
  expired: { title: 'pay_expired', text: 'pay_expired_text' },
};

/** The payments page's routes; mount before the SPA's fallback, which would answer index.html. */
export function payRoutes({ db, config, now, logError }: PayRoutesDeps) {
  const app = new Hono<AppEnv>();
  // Two path segments: never taken for a merchant reference.
  app.get(PAY_PAGE_SCRIPT_PATH, (c) => {
    c.header('Content-Type', 'text/javascript; charset=utf-8');
    c.header('Cache-Control', 'public, max-age=300');
    return c.body(PAY_PAGE_SCRIPT);
  });
  app.get('/pay/:merchantReference', async (c) => {
    let state: PaymentFormState;
    try {
      state = await loadPaymentForm(db, config, { reference: c.req.param('merchantReference'), lang: queryLang(c), now: now() });
    } catch (error) {
      // The database is away: still a page in the customer's language, and one error line (facts only).
      logError({ event: 'error', request_id: c.get('requestId') ?? crypto.randomUUID(), method: 'GET', route: '/pay/:merchantReference', ...errorFacts(error) });
      c.header('Retry-After', String(RETRY_AFTER_SECONDS));
      return html(c, 503, payMessagePageHtml({ lang: queryLang(c) ?? headerLang(c), title: 'pay_unavailable', text: 'pay_unavailable_text' }));
    }
    if (state.state === 'not_found') return notFound(c);
    if (state.state === 'pending') {
      return html(c, 200, payFormPageHtml({ lang: state.lang, details: state.details, form: state.form, sandbox: config.apsSandbox }));
    }
    const facts: PayMessageView['facts'] = [
      // Not "to pay": this attempt can no longer be paid (it may be paid, failed or expired).
      ['pay_order_amount', formatDollars(state.totalCents)],
      ['pay_reference', state.reference],
    ];
    if (state.state === 'paid' && state.certificatePath) {
      // Paid (by this attempt or a later one): the policy is issued, so say so and link its certificate.
      return html(
        c,
        200,
        payMessagePageHtml({
          lang: state.lang,
          title: 'pay_already_paid',
          text: 'pay_already_paid_issued_text',
          facts,
          link: { href: state.certificatePath, label: 'pay_certificate_link', testId: 'pay-certificate' },
        }),
      );
    }
    // Expired is 410 Gone: that page will not come back (a retry is a new order from checkout).
    // A failed or lapsed attempt leads back to its trip's checkout (issue 37 item 5); a trip paid
    // through another attempt was answered above.
    const checkout = state.state === 'paid' ? undefined : { href: `/checkout?uuid=${encodeURIComponent(state.leadUuid)}&lang=${state.lang}`, label: 'pay_back_to_checkout' as const, testId: 'pay-back-to-checkout' };
    return html(c, state.state === 'expired' ? 410 : 200, payMessagePageHtml({ lang: state.lang, ...MESSAGE_PAGES[state.state], facts, link: checkout }));
  });
  // Anything else under /pay is no order either (and must not fall through to the SPA).
  app.get('/pay', notFound);
  app.get('/pay/*', notFound);
  return app;
}
