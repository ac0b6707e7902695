import { eq } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import type { Language } from '../../contract/endpoint';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import type { AppEnv } from '../http/app-env';
import { errorFacts, type LogError } from '../http/error-handler';
import { message, type MessageKey } from '../http/messages';

/**
 * The payments page, /pay/<merchant reference> (RULINGS 19): a plain page the server renders,
 * outside the SPA, in English or Arabic (`?lang=ar`, else the order's language). Until the
 * payment issue posts the gateway's form from here, a pending order shows "coming soon" with its
 * amount and reference; a paid one says so; an unknown reference is a 404 page. Whatever the
 * address, the answer is an HTML page, never JSON and never a 500 for what was typed.
 */

/** What Amazon Payment Services accepts as a merchant reference; anything else names no order. */
const REFERENCE = /^[A-Za-z0-9_.-]{1,40}$/;

const dollars = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** "$1,234": whole dollars as everywhere in the app (RULINGS 17), the same in both languages. */
export function formatDollars(cents: number): string {
  return `$${dollars.format(Math.round(cents / 100))}`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const STYLE = `
  :root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans Arabic", sans-serif; }
  body { margin: 0; background: #f4f6f8; color: #1a2233; }
  main { max-width: 32rem; margin: 3rem auto; padding: 2rem 1.5rem; background: #fff; border-radius: 12px; box-shadow: 0 1px 4px rgba(0, 0, 0, 0.08); }
  h1 { font-size: 1.5rem; margin: 0 0 1rem; }
  p { line-height: 1.6; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: 0.5rem 1rem; margin: 1.5rem 0; }
  dt { color: #5a6478; }
  dd { margin: 0; font-weight: 600; }
  a { color: #0b5cad; }
  .brand { font-weight: 700; color: #0b5cad; margin-block-end: 1.5rem; }
`;

interface PageParts {
  lang: Language;
  title: MessageKey;
  text: MessageKey;
  facts?: [label: MessageKey, value: string][];
}

/** One page: the brand, a heading, a sentence, the order's facts (amount, reference) and a way back. */
export function payPageHtml({ lang, title, text, facts = [] }: PageParts): string {
  const list = facts.length
    ? `<dl>${facts.map(([label, value]) => `<dt>${escapeHtml(message(label, lang))}</dt><dd><bdi dir="ltr">${escapeHtml(value)}</bdi></dd>`).join('')}</dl>`
    : '';
  return `<!doctype html>
<html lang="${lang}" dir="${lang === 'ar' ? 'rtl' : 'ltr'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(`${message(title, lang)} · ${message('pay_title', lang)}`)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<div class="brand">${escapeHtml(message('pay_brand', lang))}</div>
<h1>${escapeHtml(message(title, lang))}</h1>
<p>${escapeHtml(message(text, lang))}</p>
${list}
<p><a href="/?lang=${lang}">${escapeHtml(message('pay_home', lang))}</a></p>
</main>
</body>
</html>
`;
}

const queryLang = (c: Context<AppEnv>): Language | null => {
  const lang = c.req.query('lang');
  return lang === 'ar' || lang === 'en' ? lang : null;
};
const headerLang = (c: Context<AppEnv>): Language => (c.req.header('accept-language')?.trim().toLowerCase().startsWith('ar') ? 'ar' : 'en');

function page(c: Context<AppEnv>, status: 200 | 404 | 503, parts: PageParts) {
  // The order's state changes when it is paid: never cached.
  c.header('Cache-Control', 'no-store');
  return c.html(payPageHtml(parts), status);
}

const notFound = (c: Context<AppEnv>) => page(c, 404, { lang: queryLang(c) ?? headerLang(c), title: 'pay_not_found', text: 'pay_not_found_text' });

/** The payments page's routes; mount before the SPA's fallback, which would answer index.html. */
export function payRoutes(db: Db, logError: LogError) {
  const app = new Hono<AppEnv>();
  app.get('/pay/:merchantReference', async (c) => {
    const reference = c.req.param('merchantReference');
    if (!REFERENCE.test(reference)) return notFound(c);
    let order: typeof t.orders.$inferSelect | undefined;
    try {
      [order] = await db.select().from(t.orders).where(eq(t.orders.merchantReference, reference));
    } catch (error) {
      // The database is away: still a page in the customer's language, and one error line (facts only).
      logError({ event: 'error', request_id: c.get('requestId') ?? crypto.randomUUID(), method: 'GET', route: '/pay/:merchantReference', ...errorFacts(error) });
      return page(c, 503, { lang: queryLang(c) ?? headerLang(c), title: 'pay_unavailable', text: 'pay_unavailable_text' });
    }
    if (!order) return notFound(c);
    const lang = queryLang(c) ?? (order.lang === 'ar' ? 'ar' : 'en');
    const facts: PageParts['facts'] = [
      ['pay_amount', formatDollars(order.totalCents)],
      ['pay_reference', order.merchantReference],
    ];
    if (order.status === 'paid') return page(c, 200, { lang, title: 'pay_already_paid', text: 'pay_already_paid_text', facts });
    return page(c, 200, { lang, title: 'pay_coming_soon', text: 'pay_coming_soon_text', facts });
  });
  // Anything else under /pay is no order either (and must not fall through to the SPA).
  app.get('/pay', notFound);
  app.get('/pay/*', notFound);
  return app;
}
