import { Hono, type Context } from 'hono';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/app-env';
import { errorFacts, RETRY_AFTER_SECONDS, type LogError } from '../http/error-handler';
import { message } from '../http/messages';
import { languageOf } from '../http/respond';
import { loadCertificateByToken, loadCertificateByVerifyCode } from '../policies/certificate-data';
import { certificatePdf } from '../policies/certificate-pdf';
import { verifyCodeOf, verifyNotFoundHtml, verifyPageHtml } from '../policies/verify-page';
import type { AppConfig } from '../config';
import { clientAddress } from '../rate-limit/client-address';
import { hit, RATE_LIMITS } from '../rate-limit/rate-limit';

/** A download token as issue-policy.ts makes it: 32 random bytes in base64url, 43 characters. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

const ROUTE = '/policies/:token/certificate.pdf';

/**
 * Neither a certificate nor its absence may be kept by a cache or a search engine: the link is
 * the only key to a customer's passport numbers (RULINGS 21, 24).
 */
const PRIVATE = { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex' };

/** A plain-text answer in the caller's language (Accept-Language): never the SPA, never JSON. */
function plain(c: Context<AppEnv>, status: 404 | 503, key: 'not_found' | 'server_error') {
  return c.body(message(key, languageOf(undefined, c.req.header('accept-language'))), status, {
    ...PRIVATE,
    'Content-Type': 'text/plain; charset=utf-8',
  });
}

/**
 * The policy certificate by its unguessable link, GET /policies/<token>/certificate.pdf, as the
 * policy mail, /payment-result and /thank-you-p give it; `?lang=ar` gives the Arabic one
 * (SFR-26-XXXXXXXX-ar.pdf), anything else the English one. Drawn from the database on each
 * request. A malformed or unknown token is a plain 404 (checked for shape before any query); a
 * database that is away a 503 with one error line of facts. Mount before the SPA's fallback.
 */
export function policiesRoutes(db: Db, config: Pick<AppConfig, 'publicUrl' | 'trustProxy'>, now: () => number, logError: LogError) {
  const app = new Hono<AppEnv>();
  // The page an embassy opens from a certificate's QR code (issue 37 item 4): public, counted per
  // address, and the same answer for every code that names no policy, whatever was tried.
  app.get('/verify/:code', async (c) => {
    const query = c.req.query('lang');
    const lang = query === 'ar' || query === 'en' ? query : languageOf(undefined, c.req.header('accept-language'));
    c.header('Cache-Control', 'no-store');
    c.header('X-Robots-Tag', 'noindex, nofollow');
    const verdict = await hit(db, RATE_LIMITS.verifyPolicy.perAddress, clientAddress(c, config.trustProxy), now());
    if (!verdict.allowed) {
      c.header('Retry-After', String(verdict.retryAfterSeconds));
      return c.html(verifyNotFoundHtml(lang, 'rate_limited'), 429);
    }
    const code = verifyCodeOf(c.req.param('code'));
    const data = code ? await loadCertificateByVerifyCode(db, code) : null;
    return data ? c.html(verifyPageHtml(data, lang, now())) : c.html(verifyNotFoundHtml(lang), 404);
  });
  app.get(ROUTE, async (c) => {
    const token = c.req.param('token');
    if (!TOKEN.test(token)) return plain(c, 404, 'not_found');
    const lang = c.req.query('lang') === 'ar' ? 'ar' : 'en';
    let pdf: Buffer;
    let policyNumber: string;
    try {
      const data = await loadCertificateByToken(db, token);
      if (!data) return plain(c, 404, 'not_found');
      pdf = await certificatePdf(data, config.publicUrl, lang);
      policyNumber = data.policyNumber;
    } catch (error) {
      logError({ event: 'error', request_id: c.get('requestId') ?? crypto.randomUUID(), method: 'GET', route: ROUTE, ...errorFacts(error) });
      c.header('Retry-After', String(RETRY_AFTER_SECONDS));
      return plain(c, 503, 'server_error');
    }
    return c.body(new Uint8Array(pdf), 200, {
      ...PRIVATE,
      'Content-Type': 'application/pdf',
      // The number is SFR-yy-XXXXXXXX; anything a hand edit put there cannot break the header.
      'Content-Disposition': `attachment; filename="${policyNumber.replace(/[^A-Za-z0-9_.-]/g, '-')}${lang === 'ar' ? '-ar' : ''}.pdf"`,
    });
  });
  // Anything else under /policies names no certificate (and must not fall through to the SPA).
  app.get('/policies', (c) => plain(c, 404, 'not_found'));
  app.get('/policies/*', (c) => plain(c, 404, 'not_found'));
  return app;
}
