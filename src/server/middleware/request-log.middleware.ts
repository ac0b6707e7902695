import type { MiddlewareHandler } from 'hono';

export type LogLine = { time: string; method: string; path: string; status: number; ms: number };

/**
 * Writes one JSON line per request with method, path, status and duration. Only the path is
 * logged: query strings carry names, e-mails and phone numbers (spec §2), and bodies are
 * personal data, so neither is ever written.
 */
export function requestLogMiddleware(write: (line: LogLine) => void): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    write({
      time: new Date().toISOString(),
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    });
  };
}
