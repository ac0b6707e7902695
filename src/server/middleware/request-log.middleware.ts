import type { MiddlewareHandler } from 'hono';
import { routePattern } from '../http/route-pattern';

/** `path` is the route as registered (routePattern), never the raw path of a route with parameters. */
export type LogLine = { time: string; method: string; path: string; status: number; ms: number };

/**
 * Writes one JSON line per request with method, route, status and duration. The route is the
 * pattern the request matched (`/pay/:merchantReference`, `/policies/:token/certificate.pdf`),
 * because a path can be a key: the payments page's reference shows the travellers' names and
 * e-mail, a certificate's token their passport numbers. A request only a catch-all answered is
 * logged by its path when that path is harmless, else by the pattern (route-pattern.ts). Query
 * strings carry names, e-mails and phone numbers (spec §2), and bodies are personal data, so
 * neither is ever written.
 */
export function requestLogMiddleware(write: (line: LogLine) => void): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const status = c.res.status;
    write({
      time: new Date().toISOString(),
      method: c.req.method,
      // After next(): the route that answered, not this middleware's `*`.
      path: routePattern(c, { served: status === 304 || (status >= 200 && status < 300) }),
      status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    });
  };
}
