import type { Context } from 'hono';
import { matchedRoutes } from 'hono/route';

/**
 * A path segment that can be logged as it is: lower-case words joined by dashes
 * (`compare-quotes`, `thank-you-p`), or such a file name (`favicon.ico`). No digits, capitals,
 * `@`, `%`, `+` or `_`, so never a merchant reference, download token, uuid, e-mail or phone
 * number, whatever a caller puts in the path.
 */
const WORDS = /^[a-z]+(?:-[a-z]+)*(?:\.[a-z]{1,5})?$/;
const MAX_SEGMENT = 32;
const MAX_SEGMENTS = 3;

/** A build file under /assets/ (hashed names such as `index-D3xY_aBc.js`): one segment, no query. */
const ASSET = /^\/assets\/[A-Za-z0-9_.-]{1,100}$/;

/** True when a path is made only of harmless word segments (the root, the SPA's screens). */
function isHarmlessPath(path: string): boolean {
  if (path === '/') return true;
  const segments = path.replace(/\/$/, '').split('/').slice(1);
  return (
    path.startsWith('/') &&
    segments.length <= MAX_SEGMENTS &&
    segments.every((segment) => segment.length <= MAX_SEGMENT && WORDS.test(segment))
  );
}

const isWildcard = (pattern: string) => pattern.includes('*');

/**
 * What a log line may say about where a request went, the one way every log of this server
 * names it (request log, error log):
 * - the route as registered, `/pay/:merchantReference`, `/policies/:token/certificate.pdf`,
 *   never the raw path of a route with parameters (the payments page's reference and the
 *   certificate's token are keys to personal data);
 * - when only catch-alls (`*`, `/policies/*`: the SPA fallback, static files, 404s) answered, a
 *   fixed route the path also matched (a POST refused by the signature check is named by its
 *   API route), else the path when it is harmless (word segments only: the SPA's screens), or
 *   a build file under /assets/ that was served (`served`: 2xx or 304 from the static files);
 *   otherwise the catch-all's own pattern, since an unknown path could be anything.
 * The query string is never part of it (it carries uuids, names, e-mails and phone numbers).
 *
 * It reads the route that answered (Hono's `c.req.routeIndex`: the last handler that ran), so a
 * middleware calls it after `await next()` and an error handler from onError; the last *matched*
 * route would be the SPA's fallback `*` for every GET once static files are served.
 */
export function routePattern(c: Context, options: { served?: boolean } = {}): string {
  let routes: ReturnType<typeof matchedRoutes>;
  try {
    routes = matchedRoutes(c);
  } catch {
    // No match result: the failure came before routing.
    routes = [];
  }
  const answered = routes[c.req.routeIndex]?.path ?? '*';
  if (!isWildcard(answered)) return answered;
  const fixed = routes.find((route) => !isWildcard(route.path));
  if (fixed) return fixed.path;
  const path = c.req.path;
  if (isHarmlessPath(path)) return path;
  if (options.served && ASSET.test(path)) return path;
  return answered;
}
