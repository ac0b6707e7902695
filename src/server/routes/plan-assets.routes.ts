import { Hono } from 'hono';
import { LANGUAGES, type Language } from '../../contract/endpoint';
import type { Db } from '../db/client';
import { envelope } from '../http/respond';
import { message } from '../http/messages';
import { loadPlans } from '../quoting/catalogue';
import { INSURER_LOGOS } from '../quoting/insurer-logos';
import { planDocumentPdf } from '../quoting/plan-document';

const langOf = (value: string | undefined): Language => (LANGUAGES.includes(value as Language) ? (value as Language) : 'en');

/**
 * Public GETs of the quote list: insurer logos at /img/<image> (spec §7) and plan-benefits PDFs
 * at /plan-documents/<planId>.pdf. Neither is signed: browsers load them as plain links.
 */
export function planAssetsRoutes(db: Db) {
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
    const pdf = await planDocumentPdf(plan);
    return c.body(new Uint8Array(pdf), 200, {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `inline; filename="plan-${plan.id}-benefits.pdf"`,
      'Cache-Control': 'no-cache',
    });
  });
  return app;
}
