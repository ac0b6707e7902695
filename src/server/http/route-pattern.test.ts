import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from './app-env';
import { installErrorHandler, type ErrorLogLine } from './error-handler';
import { routePattern } from './route-pattern';

const TOKEN = 'q3Jx0_9ZkLwR2mVb7TnC4yHs8dPf1gEaUo6iKt5NcQw';

/**
 * An app shaped like createApp's: a logging middleware first, routes with parameters mounted
 * with app.route('/', sub), then catch-alls (static files, the SPA fallback) that match every GET.
 */
function shapedApp() {
  const seen: string[] = [];
  const errors: ErrorLogLine[] = [];
  const app = new Hono<AppEnv>();
  installErrorHandler(app, (line) => errors.push(line));
  app.use(async (c, next) => {
    await next();
    seen.push(routePattern(c, { served: c.res.status === 200 }));
  });
  app.use(async (_c, next) => next());
  const sub = new Hono<AppEnv>();
  sub.get('/pay/:merchantReference', (c) => c.text('page'));
  sub.get('/policies/:token/certificate.pdf', () => {
    throw new Error('database away');
  });
  sub.get('/policies/*', (c) => c.text('none', 404));
  app.route('/', sub);
  // The signature check runs for every POST, ahead of the API's routes.
  app.post('*', async (c, next) => (c.req.header('x-signature') ? next() : c.text('unsigned', 401)));
  app.post('/api/leads', (c) => c.json({}));
  app.get('*', async (_c, next) => next());
  app.get('*', (c) => (c.req.path.startsWith('/assets/') ? c.notFound() : c.html('<div id="root"></div>')));
  return { app, seen, errors };
}

describe('routePattern: the route that answered, never a key in the path', () => {
  it('names the handler that answered, not the last catch-all the path also matched', async () => {
    const { app, seen } = shapedApp();
    await app.request('/pay/SAF42-MFX3K2A1-7QZC0P4M8R2D?lang=ar');
    await app.request(`/policies/${TOKEN}`);
    expect(seen).toEqual(['/pay/:merchantReference', '/policies/*']);
  });

  it('names a request a middleware refused by the fixed route it was for', async () => {
    const { app, seen } = shapedApp();
    expect((await app.request('/api/leads', { method: 'POST' })).status).toBe(401);
    expect(seen).toEqual(['/api/leads']);
  });

  it('keeps harmless word paths of the SPA and hides any other path behind the catch-all', async () => {
    const { app, seen } = shapedApp();
    for (const url of ['/', '/checkout?uuid=8f14e45f-ceea-467e-a2b1-0c2a6d1e9b10', '/thank-you-p/', `/${TOKEN}`, '/Checkout', '/a@b.example', '/call-back/71123456', '/a/b/c/d']) {
      await app.request(url);
    }
    expect(seen).toEqual(['/', '/checkout', '/thank-you-p/', '/*', '/*', '/*', '/*', '/*']);
  });

  it('logs a path under /assets/ only when it was served', async () => {
    const { app, seen } = shapedApp();
    await app.request(`/assets/${TOKEN}.js`);
    expect(seen).toEqual(['/*']);
  });

  it('names the route that threw in the error line, although the SPA fallback matched after it', async () => {
    const { app, errors } = shapedApp();
    expect((await app.request(`/policies/${TOKEN}/certificate.pdf`)).status).toBe(500);
    expect(errors).toEqual([expect.objectContaining({ event: 'error', method: 'GET', route: '/policies/:token/certificate.pdf' })]);
    expect(JSON.stringify(errors)).not.toContain(TOKEN);
  });
});
