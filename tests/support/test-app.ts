import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { PAGES_TABLE } from '../../src/contract/built-pages';
import { pagesTable } from '../../src/web/prerender/built-pages';
import { createApp, type AppDeps } from '../../src/server/app';
import type { AppConfig } from '../../src/server/config';
import {
  APS_SANDBOX_API_PATH,
  APS_SANDBOX_PAYMENT_PAGE_PATH,
  DEV_ALTCHA_HMAC_KEY,
  DEV_APS_ACCESS_CODE,
  DEV_APS_MERCHANT_IDENTIFIER,
  DEV_APS_REQUEST_PHRASE,
  DEV_APS_RESPONSE_PHRASE,
  DEV_SIGNING_SECRET,
} from '../../src/server/config';
import { signedHeaders } from './signed-request';
import type { ErrorLogLine } from '../../src/server/http/error-handler';
import type { LogLine } from '../../src/server/middleware/request-log.middleware';
import { createTestDatabase } from './test-db';

export const TEST_SIGNING_SECRET = DEV_SIGNING_SECRET;

/**
 * Configuration of a test app. The insurer API URL is the sandbox the app hosts itself; tests
 * reach it through `insurerFetch`, which createTestApp routes back into the app. Mail goes to
 * a fresh temporary outbox.
 */
export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    signingSecret: TEST_SIGNING_SECRET,
    apiBaseUrl: '',
    mainSiteUrl: 'https://www.safar.example',
    publicUrl: 'http://safar.test',
    insurerApiUrl: 'http://safar.test/insurer-sandbox',
    insurerTimeoutMs: 3000,
    altchaHmacKey: DEV_ALTCHA_HMAC_KEY,
    botCheck: { mode: 'altcha' },
    smtpUrl: '',
    mailFrom: 'Safar <care@safar.example>',
    outboxDir: mkdtempSync(path.join(tmpdir(), 'safar-outbox-')),
    trustProxy: false,
    apsAccessCode: DEV_APS_ACCESS_CODE,
    apsMerchantIdentifier: DEV_APS_MERCHANT_IDENTIFIER,
    apsRequestPhrase: DEV_APS_REQUEST_PHRASE,
    apsResponsePhrase: DEV_APS_RESPONSE_PHRASE,
    apsShaType: 'sha256',
    apsGatewayUrl: `http://safar.test${APS_SANDBOX_PAYMENT_PAGE_PATH}`,
    apsApiUrl: `http://safar.test${APS_SANDBOX_API_PATH}`,
    apsSandbox: true,
    ...overrides,
  };
}

export interface TestApp {
  app: ReturnType<typeof createApp>;
  db: AppDeps['db'];
  logs: LogLine[];
  /** The error log lines the app wrote (unless `logError` was overridden). */
  errors: ErrorLogLine[];
  /** Sends a correctly signed POST; `headers` can override or drop (undefined) signing headers. */
  post(path: string, body?: unknown, options?: { headers?: Record<string, string | undefined>; nowMs?: number }): Promise<Response>;
  close(): Promise<void>;
  /** The database as a PGlite tarball (committed state), to open it again in a new app. */
  dump(): Promise<Blob>;
}

/** Builds the app over a throwaway seeded database (DESIGN convention 8). */
export async function createTestApp(overrides: Partial<Omit<AppDeps, 'db'>> = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const logs: LogLine[] = [];
  const errors: ErrorLogLine[] = [];
  // The HTTP insurer is the sandbox this same app hosts: route its calls back into the app.
  const selfFetch: typeof fetch = async (input, init) => app.request(input instanceof Request ? input : String(input), init);
  const app: ReturnType<typeof createApp> = createApp({
    db: database.db,
    config: testConfig(),
    staticDir: null,
    insurerFetch: selfFetch,
    gatewayFetch: selfFetch,
    log: (line) => logs.push(line),
    logError: (line) => errors.push(line),
    ...overrides,
  });
  return {
    app,
    db: database.db,
    logs,
    errors,
    async post(path, body, options = {}) {
      const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
      const signed: Record<string, string | undefined> = {
        ...(await signedHeaders(TEST_SIGNING_SECRET, text, options.nowMs ?? Date.now())),
        ...options.headers,
      };
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(signed)) if (value !== undefined) headers[key] = value;
      return app.request(path, { method: 'POST', body: text || undefined, headers });
    },
    close: () => database.close(),
    dump: () => database.dump!(),
  };
}

/** Serves a test app on a free loopback port, for clients that need a real socket. */
export async function listen(app: TestApp['app']): Promise<{ url: string; close: () => Promise<void> }> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}

/**
 * Writes the web app's built pages into a static dir as the build does (one per step and their
 * table, src/web/prerender/built-pages.ts): `page` gives each file's HTML, by its name.
 */
export function writeBuiltPages(staticDir: string, page: (file: string) => string): void {
  const table = pagesTable();
  for (const file of new Set([...Object.values(table.paths), table.fallback, PAGES_TABLE])) {
    mkdirSync(path.dirname(path.join(staticDir, file)), { recursive: true });
    writeFileSync(path.join(staticDir, file), file === PAGES_TABLE ? JSON.stringify(table) : page(file));
  }
}
