import type { MiddlewareHandler } from 'hono';

/**
 * `Cache-Control: no-store` on every answer to a path `isApi` accepts (issue 33 item 5): API
 * answers carry customers' names, trips, totals and payment states (get-personal-details,
 * payment-status), and no browser, proxy or CDN may keep one. Set once the answer is made, over
 * any Cache-Control a route set, so refusals (401, 404, 405, 413, 422, 429), the error handler's
 * 500 and 503, the reference lists' 200 and 304, and any route added later are covered alike.
 */
export function noStoreMiddleware(isApi: (path: string) => boolean): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (isApi(c.req.path)) c.header('Cache-Control', 'no-store');
  };
}
