import { Hono } from 'hono';
import { LANGUAGES, type Language } from '../../contract/endpoint';
import type { Db } from '../db/client';
import { envelope } from '../http/respond';
import { message } from '../http/messages';
import { loadPlans } from '../quoting/catalogue';
import { INSURER_LOGOS } from '../quoting/insurer-logos';
import { planDocumentCache, type PlanDocumentCache } from '../quoting/plan-document';

const langOf = (value: string | undefined): Language => (LANGUAGES.includes(value as Language) ? (value as Language) : 'en');

/**
 * How long a browser or proxy may reuse a plan document before asking again. Short, so a broker's
 * edit reaches customers within minutes; asking again is cheap: a matching If-None-Match gets a
 * 304 without a body, and the PDF itself is drawn once per catalogue version (planDocumentCache).
 */
export const PLAN_DOCUMENT_MAX_AGE_S = 300;

/** True when an If-None-Match header names `etag` (or is `*`); weak comparison, as RFC 9110 asks for this header. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Public GETs of the quote list: insurer logos at /img/<image> (spec §7) and plan-benefits PDFs
 * at /plan-documents/<planId>.pdf. Neither is signed: browsers load them as plain links. Plan
 * documents carry a strong ETag and are drawn once per version of the plan's catalogue rows.
 */
export function planAssetsRoutes(db: Db, documents: PlanDocumentCache = planDocumentCache()) {
  const app = new Hono();
  app.get('/img/:image', (c) => {
    const svg = Object.hasOwn(INSURER_LOGOS, c.req.param('image')) ? INSURER_LOGOS[c.req.param('image')] : undefined;
    if (!svg) return envelope(c, 404, message('not_found', langOf(c.req.query('lang'))), {});
    c.header('Cache-Control', 'public, max-age=86400');
    return c.body(svg, 200, { 'Content-Type': 'image/svg+xml; charset=utf-8' });
  });
  app.get('/plan-documents/:file', async (c) => {
    const lang = langOf(c.req.query('lang'));
    const match = /^(\d{1,9})\.pdf$/.exec(c.req.param('file'));
    const [plan] = match ? await loadPlans(db, [Number(match[1])]) : [];
    if (!plan) return envelope(c, 404, message('not_found', lang), {});
    const { pdf, etag } = await documents.get(plan);
    const caching = { ETag: etag, 'Cache-Control': `public, max-age=${PLAN_DOCUMENT_MAX_AGE_S}, must-revalidate` };
    if (matches(c.req.header('if-none-match'), etag)) return c.body(null, 304, caching);
    return c.body(new Uint8Array(pdf), 200, {
      ...caching,
      'Content-Type': 'application/pdf',
      'Content-Disposition': `inline; filename="plan-${plan.id}-benefits.pdf"`,
    });
  });
  return app;
}
