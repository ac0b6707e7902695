import path from 'node:path';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { serveStatic } from '@hono/node-server/serve-static';
import type { AppConfig } from './config';
import type { Db } from './db/client';
import type { AppEnv } from './http/app-env';
import { errorFacts, installErrorHandler, RETRY_AFTER_SECONDS, writeErrorLine, type LogError } from './http/error-handler';
import { readiness } from './health/database-health';
import { createResourceWatch, noteResourceFailures } from './health/resource-health';
import { envelope, languageOf } from './http/respond';
import { message } from './http/messages';
import { acceptsGzip } from './http/cached-json';
import { loadBuiltPages } from './http/spa';
import { bodyLimitMiddleware } from './middleware/body-limit.middleware';
import { requestLogMiddleware, type LogLine } from './middleware/request-log.middleware';
import { securityHeadersMiddleware } from './middleware/security-headers.middleware';
import { noStoreMiddleware } from './middleware/no-store.middleware';
import { signatureMiddleware } from './middleware/signature.middleware';
import { createRateLimiter } from './rate-limit/rate-limit.middleware';
import { leadsRoutes } from './routes/leads.routes';
import { referenceRoutes } from './routes/reference.routes';
import { insurerSandboxRoutes } from './routes/insurer-sandbox.routes';
import { planAssetsRoutes } from './routes/plan-assets.routes';
import { InsurerUnavailableError } from './quoting/http-insurer';
import { quotesRoutes } from './routes/quotes.routes';
import { botCheckRoutes } from './routes/bot-check.routes';
import { callBacksRoutes } from './routes/call-backs.routes';
import { ordersRoutes } from './routes/orders.routes';
import { reviewRoutes } from './routes/review.routes';
import { checkoutRoutes } from './routes/checkout.routes';
import { payRoutes } from './routes/pay.routes';
import { sharesRoutes } from './routes/shares.routes';
import { paymentsRoutes } from './routes/payments.routes';
import { apsSandboxRoutes } from './routes/aps-sandbox.routes';
import { policiesRoutes } from './routes/policies.routes';
import { policyPageRoutes } from './routes/policy-page.routes';
import { paymentStatusRoutes } from './routes/payment-status.routes';
import { payfortRoutes } from './routes/payfort.routes';
import { createOutboxWorker, type OutboxWorker, type WorkerSchedule } from './mail/outbox';
import { createRefundWorker } from './payments/aps-refund';
import { createSandboxFeedbackWorker } from './payments/sandbox-feedback';
import type { MailTransport } from './mail/mailer';
import { adminRoutes, type AdminAccess } from './admin/admin.routes';
import { consoleRoutes } from './admin/console.routes';
import { consoleSecret, createConsoleAuth, type ConsoleAuth } from './admin/console-auth';
import { consolePage } from './http/console-page';
import { CONSOLE_API, CONSOLE_PATH } from '../contract/broker-console';
import { createReferenceData } from './reference/reference-data';

/** Path prefixes of the broker API (spec §7); everything under them is signed JSON over POST. */
export const API_PREFIXES = ['/miscellaneous', '/health', '/api'] as const;

/** How createApp runs an outbox worker. */
export type WorkerOptions = WorkerSchedule & { start: boolean };

export interface AppDeps {
  db: Db;
  config: AppConfig;
  /** The built SPA (vite build output); null serves the API only. */
  staticDir: string | null;
  now?: () => number;
  /** How the server reaches insurer APIs; tests route it to the in-process sandbox or a dead insurer. */
  insurerFetch?: typeof fetch;
  /** How the embedded APS sandbox posts its transaction feedback; tests route it back into the app. */
  gatewayFetch?: typeof fetch;
  log?: (line: LogLine) => void;
  /**
   * Where error lines go (default: one JSON line on stderr). It receives only the facts of
   * ErrorLogLine, never an error object, so no sink can print a message that quotes personal data.
   */
  logError?: LogError;
  /**
   * The outbox worker (mail/outbox.ts): its WorkerSchedule (pollMs, nudgeWhenStopped, instanceId), and
   * start: createApp starts it (main.ts; tests start or drain it by hand). Default: never polls,
   * and a nudge after a commit drains (the test app, so mail is there when a request returns).
   */
  mailWorker?: WorkerOptions;
  /** The APS sandbox's feedback worker (payments/sandbox-feedback.ts), the same options; started only with the sandbox. */
  feedbackWorker?: WorkerOptions;
  /** The REFUND worker (payments/aps-refund.ts), the same options. */
  refundWorker?: WorkerOptions;
  /** The mail transport at the edge (tests inject a failing one); default: SMTP_URL or .eml files. */
  mailTransport?: MailTransport;
  /** The broker CLI's admin endpoint (admin/admin.routes.ts): main.ts on embedded PGlite; absent, there is none. */
  admin?: AdminAccess;
  /**
   * How often, at most, the in-memory reference data and catalogue ask the database whether they
   * changed (reference/reference-data.ts): main.ts 1000 ms; default 0, at every use (tests write
   * to those tables directly and expect the next request to see it).
   */
  referenceCheckMs?: number;
  /**
   * False while main.ts is still opening the database (issue 34 item 6): /health/ready answers 503
   * `starting` then. Absent, the database is open (tests).
   */
  databaseOpen?: () => boolean;
}

/** The server createApp builds: the Hono app, its outbox workers, and what it answers before the database is open. */
export type SafarApp = Hono<AppEnv> & {
  mailWorker: OutboxWorker;
  feedbackWorker: OutboxWorker;
  refundWorker: OutboxWorker;
  /** Starts the outbox workers (main.ts, once the database is open and seeded, having told createApp not to). */
  startWorkers(): void;
  /**
   * Whether a request needs no database: the health probes, the web app's own pages and its
   * hashed files. main.ts answers these while the database opens and holds the rest until it is.
   */
  answersBeforeOpen(request: Request): boolean;
};

const isApiPath = (p: string) => API_PREFIXES.some((prefix) => p === prefix || p.startsWith(`${prefix}/`));

/** Builds the whole server: API, SPA and the payments page, over the given database. */
export function createApp(deps: AppDeps): SafarApp {
  const now = deps.now ?? Date.now;
  const app = new Hono<AppEnv>();
  const apiOrigin = deps.config.apiBaseUrl ? new URL(deps.config.apiBaseUrl).origin : null;

  // Readiness learns of a full disk from the failures logged, whichever path met it (resource-health.ts).
  const resources = createResourceWatch(now);
  const logError = noteResourceFailures(deps.logError ?? writeErrorLine, resources);
  const reference = createReferenceData(deps.db, { checkMs: deps.referenceCheckMs ?? 0, now });

  // The web app's pages, read once with the runtime configuration written in (issue 19).
  const builtPages = deps.staticDir
    ? loadBuiltPages(deps.staticDir, {
        apiBaseUrl: deps.config.apiBaseUrl,
        signingKey: deps.config.signingSecret,
        mainSiteUrl: deps.config.mainSiteUrl,
        botCheck: deps.config.botCheck.mode,
        recaptchaSiteKey: deps.config.botCheck.mode === 'recaptcha' ? deps.config.botCheck.siteKey : '',
      })
    : null;

  installErrorHandler(app, logError);
  app.use(noStoreMiddleware(isApiPath));
  if (deps.log) app.use(requestLogMiddleware(deps.log));
  // The payments page posts its form to the gateway (RULINGS 19): the one other form target.
  const gatewayOrigin = new URL(deps.config.apsGatewayUrl).origin;
  app.use(
    securityHeadersMiddleware({
      apiOrigin,
      formTargets: [gatewayOrigin],
      publicUrl: deps.config.publicUrl,
      recaptcha: deps.config.botCheck.mode === 'recaptcha',
      inlineScripts: builtPages?.inlineScriptHashes ?? [],
    }),
  );
  app.use(compress());
  app.use(bodyLimitMiddleware());

  app.get('/healthz', (c) => c.json({ status: 200, message: 'OK', data: { time: new Date(now()).toISOString() } }));
  // Unsigned GETs under the /health prefix (issue 18 item 4): live answers without the database,
  // ready only when the database answers and every migration is applied. Other methods stay 405.
  app.get('/health/live', (c) => envelope(c, 200, message('ok', 'en'), { status: 'live', time: new Date(now()).toISOString() }));
  // A database that answers may still be unable to write: a full disk is not ready either (issue 34 item 3).
  app.get('/health/ready', async (c) => {
    const state = deps.databaseOpen?.() === false ? ({ ready: false, reason: 'starting' } as const) : await readiness(deps.db);
    const reason = state.ready ? resources.reason() : state.reason;
    if (!reason) return envelope(c, 200, message('ok', 'en'), { status: 'ready' });
    c.header('Retry-After', String(RETRY_AFTER_SECONDS));
    const lang = languageOf(undefined, c.req.header('accept-language'));
    return envelope(c, 503, message('service_unavailable', lang), { status: 'not_ready', reason });
  });
  // Unsigned: the insurer sandbox (an insurer's own API), logos and plan documents.
  app.route('/', insurerSandboxRoutes(deps.db));
  app.route('/', planAssetsRoutes(deps.db));
  // The payments page (RULINGS 19): server-rendered HTML, ahead of the SPA's fallback below.
  const testWorker: WorkerOptions = { pollMs: null, start: false, nudgeWhenStopped: true };
  const { start: startMail, ...mailSchedule } = deps.mailWorker ?? testWorker;
  const mailWorker = createOutboxWorker({ db: deps.db, config: deps.config, now, logError, transport: deps.mailTransport, ...mailSchedule });
  const { start: startFeedback, ...feedbackSchedule } = deps.feedbackWorker ?? testWorker;
  const feedbackWorker = createSandboxFeedbackWorker({
    db: deps.db,
    config: deps.config,
    now,
    gatewayFetch: deps.gatewayFetch ?? fetch,
    logError,
    ...feedbackSchedule,
  });
  const { start: startRefund, ...refundSchedule } = deps.refundWorker ?? testWorker;
  const refundWorker = createRefundWorker({
    db: deps.db,
    config: deps.config,
    now,
    gatewayFetch: deps.gatewayFetch ?? fetch,
    logError,
    ...refundSchedule,
  });
  // The feedback worker runs with the APS sandbox only.
  const startWorkers = (mail = true, feedback = true, refund = true) => {
    if (mail) void mailWorker.start();
    if (feedback && deps.config.apsSandbox) void feedbackWorker.start();
    if (refund) void refundWorker.start();
  };
  startWorkers(startMail, startFeedback, startRefund);
  app.route('/', payRoutes({ db: deps.db, config: deps.config, now, logError }));
  // The gateway's answers (RULINGS 20): unsigned form posts, trusted only for their APS signature.
  app.route('/', paymentsRoutes({ db: deps.db, config: deps.config, mailWorker, now, logError }));
  if (deps.config.apsSandbox) {
    app.route('/', apsSandboxRoutes({ db: deps.db, config: deps.config, now, feedbackWorker }));
  }
  // Policy certificates, by their unguessable token (RULINGS 21).
  app.route('/', policiesRoutes(deps.db, deps.config, now, logError));
  // Loopback callers with the DATA_DIR/admin.json token only; anyone else gets the plain 404.
  if (deps.admin) app.route('/', adminRoutes({ db: deps.db, config: deps.config, access: deps.admin, mailWorker, refundWorker, now, reference }));

  // The broker's console API (issue 36): its own session cookie, never the customer's signature.
  let consoleReady: Promise<{ auth: ConsoleAuth; secret: string }> | null = null;
  const ready = () => {
    consoleReady ??= consoleSecret(deps.db).then((secret) => ({ secret, auth: createConsoleAuth(deps.db, { publicUrl: deps.config.publicUrl, secret }) }));
    // A failed start (the database away) is tried again at the next request.
    consoleReady.catch(() => (consoleReady = null));
    return consoleReady;
  };
  app.route('/', consoleRoutes({ db: deps.db, ready, config: deps.config, mailWorker, refundWorker, now }));

  // The API: POST with a signed JSON body only. Its routes sit on this app, so one context
  // (request id, body read once) and one error handler serve them; the signature check runs
  // for every POST under the API prefixes, a path with no route included (then 404 below).
  for (const prefix of API_PREFIXES) {
    app.on(['GET', 'PUT', 'PATCH', 'DELETE'], [prefix, `${prefix}/*`], (c) =>
      envelope(c, 405, message('method_not_allowed', languageOf(undefined, c.req.header('accept-language'))), {}),
    );
  }
  const signature = signatureMiddleware({ db: deps.db, secret: deps.config.signingSecret, now });
  app.post('*', async (c, next) => (isApiPath(c.req.path) ? signature(c, next) : next()));
  app.route('/', referenceRoutes(deps.db, reference));
  // Rate limits (issue 7) count in the database, so every instance agrees.
  const limiter = createRateLimiter({ db: deps.db, now, trustProxy: deps.config.trustProxy });
  app.route('/', leadsRoutes(deps.db, now, limiter));
  app.route(
    '/',
    quotesRoutes(
      {
        db: deps.db,
        config: deps.config,
        reference,
        insurerFetch: deps.insurerFetch ?? fetch,
        // The insurer's error is known here, but only its class, code and insurer id are logged.
        logError: (error) =>
          logError({
            event: 'insurer_unavailable',
            ...(error instanceof InsurerUnavailableError ? { insurer_id: error.insurerId } : {}),
            ...errorFacts(error),
          }),
      },
      now,
    ),
  );
  app.route('/', botCheckRoutes(deps.db, deps.config, now, limiter));
  app.route('/', ordersRoutes(deps.db, deps.config, now, logError));
  app.route('/', reviewRoutes(deps.db, now, limiter));
  app.route('/', checkoutRoutes(deps.db, deps.config, mailWorker, now, limiter));
  app.route('/', payfortRoutes(deps.db, deps.config, now));
  app.route('/', paymentStatusRoutes(deps.db, deps.config));
  app.route('/', callBacksRoutes(deps.db, now, limiter));
  app.route('/', sharesRoutes(deps.db, deps.config, mailWorker, now, limiter));
  // The customer's policy page (issue 37 item 2), by its unguessable page token.
  app.route('/', policyPageRoutes(deps.db, mailWorker, now, limiter));

  // The SPA: hashed assets cached for a year, every other GET falls back to index.html.
  if (deps.staticDir) {
    const staticDir = deps.staticDir;
    const root = path.relative(process.cwd(), staticDir) || '.';
    app.use('/assets/*', async (c, next) => {
      await next();
      if (c.res.status === 200) c.header('Cache-Control', 'public, max-age=31536000, immutable');
    });
    // The console's page (its own build, dist/broker/): every console path but its API and files.
    const consoleHtml = consolePage(staticDir);
    app.get(`${CONSOLE_PATH}/assets/*`, async (c, next) => {
      await next();
      if (c.res.status === 200) c.header('Cache-Control', 'public, max-age=31536000, immutable');
    });
    app.get(CONSOLE_PATH, (c) => c.redirect(`${CONSOLE_PATH}/`, 301));
    app.get(`${CONSOLE_PATH}/*`, async (c, next) => {
      if (c.req.path.startsWith(`${CONSOLE_PATH}/assets/`) || c.req.path.startsWith(`${CONSOLE_API}/`)) return next();
      return consoleHtml(c);
    });
    // The built pages are answered below, with the runtime configuration, never as plain files.
    // Scripts, stylesheets and SVGs go out as the build compressed them (precompress.plugin.ts):
    // Brotli or gzip, whichever the browser accepts, and compress() leaves them as they are.
    app.get('*', serveStatic({ root, precompressed: true, rewriteRequestPath: (p) => (p === '/' || p === '/index.html' || p.startsWith('/pages/') ? '/__spa__' : p) }));
    app.get('*', (c) => {
      // A missing hashed asset must be a 404, not index.html cached for a year under its name.
      if (isApiPath(c.req.path) || c.req.path.startsWith('/assets/') || c.req.path.startsWith(`${CONSOLE_PATH}/assets/`)) return c.notFound();
      if (!builtPages) return c.text('The web app is not built yet: run npm run build (npm start does it for you).', 503);
      // The address's own page: its screen pre-rendered in both languages (issue 19).
      const page = builtPages.pageFor(c.req.path);
      c.header('Cache-Control', 'no-cache');
      c.header('Vary', 'Accept-Encoding');
      if (acceptsGzip(c.req.header('accept-encoding'))) {
        // Compressed once at start, not per request (100–170 KB each, 16–23 KB gzipped).
        c.header('Content-Encoding', 'gzip');
        return c.body(page.gzip, 200, { 'Content-Type': 'text/html; charset=UTF-8' });
      }
      return c.html(page.html);
    });
  }
  // An API POST has its language from the signed body by now; anything else from Accept-Language.
  app.notFound((c) =>
    envelope(c, 404, message('not_found', c.get('lang') ?? languageOf(undefined, c.req.header('accept-language'))), {}),
  );
  const probes = new Set(['/healthz', '/health/live', '/health/ready']);
  const answersBeforeOpen = (request: Request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const { pathname } = new URL(request.url);
    return probes.has(pathname) || (builtPages !== null && (pathname.startsWith('/assets/') || builtPages.hasPage(pathname)));
  };
  return Object.assign(app, { mailWorker, feedbackWorker, refundWorker, startWorkers: () => startWorkers(), answersBeforeOpen });
}
