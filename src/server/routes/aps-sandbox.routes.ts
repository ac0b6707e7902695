import { isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono, type Context } from 'hono';
import type { AppConfig } from '../app';
import { APS_SANDBOX_PAYMENT_PAGE_PATH } from '../config';
import type { AppEnv } from '../http/app-env';
import type { LogError } from '../http/error-handler';
import {
  CARD_FIELDS,
  checkPurchaseRequest,
  newAuthorizationCode,
  newFortId,
  parseFormBody,
  purchaseResponse,
  readCard,
  type CardField,
  type FormFields,
  type RequestCheck,
} from '../payments/sandbox-gateway';
import {
  cardPageHtml,
  REQUEST_FIELD_PREFIX,
  RETURN_SCRIPT,
  returnPageHtml,
  SANDBOX_PAY_PATH,
  SANDBOX_RETURN_SCRIPT_PATH,
  sandboxErrorPageHtml,
  sandboxLanguage,
} from '../payments/sandbox-pages';
import { APS_FEEDBACK_PATH } from './payments.routes';

export interface ApsSandboxDeps {
  config: AppConfig;
  now: () => number;
  /** How the sandbox reaches the notification endpoint (tests route it back into the app). */
  gatewayFetch: typeof fetch;
  logError: LogError;
  /** Waits before each retry of an unacknowledged feedback; FEEDBACK_RETRY_DELAYS_MS by default. */
  feedbackRetryDelaysMs?: readonly number[];
}

/**
 * How long the sandbox waits before it posts an unacknowledged direct transaction feedback again:
 * three more tries over about a minute, then one log line. APS itself keeps retrying for longer;
 * the return through the browser settles the order meanwhile anyway.
 */
export const FEEDBACK_RETRY_DELAYS_MS: readonly number[] = [2_000, 10_000, 60_000];

/** One feedback POST may take this long before it counts as not acknowledged. */
const FEEDBACK_TIMEOUT_MS = 10_000;

/**
 * The embedded Amazon Payment Services sandbox (RULINGS 20), mounted when APS_GATEWAY_URL is
 * empty. It implements the redirection contract the payments page speaks:
 * - POST paymentPage (APS's own is /FortAPI/paymentPage): the PURCHASE form. A valid, signed request gets the card page; a bad
 *   signature or a missing or malformed field is sent back to return_url with status 00 and
 *   APS's code, as APS does; without a usable return_url or for another merchant, a 400 page.
 * - POST pay: the card form, carrying the request back; its signature is checked again. Then the
 *   signed response goes to return_url through the browser (an auto-submitted form) and, at the
 *   same time, to the notification endpoint as the direct transaction feedback, retried until a
 *   200 answers.
 * - GET return.js: the script that submits that form (CSP: scripts from this origin only).
 */
export function apsSandboxRoutes(deps: ApsSandboxDeps) {
  const app = new Hono<AppEnv>();
  const retryDelays = deps.feedbackRetryDelaysMs ?? FEEDBACK_RETRY_DELAYS_MS;

  app.post(APS_SANDBOX_PAYMENT_PAGE_PATH, (c) => {
    const { fields, duplicated } = parseFormBody(c.get('rawBody') ?? '');
    const check = checkPurchaseRequest(fields, deps.config, duplicated);
    if (check.kind !== 'accepted') return answerRefusal(c, check, fields);
    return page(c, 200, cardPageHtml({ request: check.request }));
  });

  app.post(SANDBOX_PAY_PATH, (c) => {
    const { fields: posted, duplicated } = parseFormBody(c.get('rawBody') ?? '');
    const request: FormFields = {};
    for (const [name, value] of Object.entries(posted)) {
      if (name.startsWith(REQUEST_FIELD_PREFIX)) request[name.slice(REQUEST_FIELD_PREFIX.length)] = value;
    }
    // The request again, as it left the payments page: a changed field fails its signature here.
    const check = checkPurchaseRequest(request, deps.config, duplicated);
    if (check.kind !== 'accepted') return answerRefusal(c, check, request);

    const ids = { fortId: newFortId(), authorizationCode: newAuthorizationCode(), customerIp: customerIp(c, deps.config.trustProxy) };
    if (posted.action === 'cancel') return answer(c, check.request, purchaseResponse(check.request, { action: 'cancel' }, ids, deps.config));

    const typed = Object.fromEntries(CARD_FIELDS.map((name) => [name, posted[name] ?? ''])) as Record<CardField, string>;
    const card = readCard(typed, deps.now());
    if (!card.ok) return page(c, 200, cardPageHtml({ request: check.request, values: typed, errors: card.errors }));
    return answer(c, check.request, purchaseResponse(check.request, { action: 'pay', card: card.card }, ids, deps.config));
  });

  app.get(SANDBOX_RETURN_SCRIPT_PATH, (c) => {
    c.header('Content-Type', 'text/javascript; charset=utf-8');
    c.header('Cache-Control', 'public, max-age=300');
    return c.body(RETURN_SCRIPT);
  });

  // Opened by hand (or reloaded after a POST): there is no request to show.
  for (const path of [APS_SANDBOX_PAYMENT_PAGE_PATH, SANDBOX_PAY_PATH]) {
    app.get(path, (c) => {
      c.header('Allow', 'POST');
      return page(c, 405, sandboxErrorPageHtml({ lang: c.req.query('language') === 'ar' ? 'ar' : 'en', reason: 'sandbox_post_only_text' }));
    });
  }

  /** The signed response to the browser, and the same fields as direct feedback, not awaited. */
  function answer(c: Context<AppEnv>, request: FormFields, response: FormFields) {
    void sendFeedback(deps, response, retryDelays);
    return page(c, 200, returnPageHtml({ lang: sandboxLanguage(request), returnUrl: request.return_url!, response }));
  }

  return app;
}

/** A request refused before any card was asked for: back to return_url when it can be, else a page. */
function answerRefusal(c: Context<AppEnv>, check: Exclude<RequestCheck, { kind: 'accepted' }>, fields: FormFields) {
  const lang = sandboxLanguage(fields);
  if (check.kind === 'no_return_url') return page(c, 400, sandboxErrorPageHtml({ lang, reason: 'sandbox_no_return_url_text' }));
  if (check.kind === 'unknown_merchant') return page(c, 400, sandboxErrorPageHtml({ lang, reason: 'sandbox_unknown_merchant_text' }));
  return page(c, 200, returnPageHtml({ lang, returnUrl: check.returnUrl, response: check.response }));
}

function page(c: Context<AppEnv>, status: 200 | 400 | 405, body: string) {
  c.header('Cache-Control', 'no-store');
  c.header('X-Robots-Tag', 'noindex, nofollow');
  return c.html(body, status);
}

/** The customer's address as APS reports it (customer_ip): the proxy's right-most entry, else the socket's. */
function customerIp(c: Context<AppEnv>, trustProxy: boolean): string {
  const forwarded = trustProxy ? c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim() : undefined;
  if (forwarded && isIP(forwarded)) return forwarded;
  let remote: string | undefined;
  try {
    remote = getConnInfo(c).remote.address;
  } catch {
    // No socket: an in-process request (tests), i.e. from this machine.
  }
  const address = remote?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  return address && isIP(address) ? address : '127.0.0.1';
}

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    // Unref'd: a retry still pending must not keep the process (or a test run) alive.
    setTimeout(resolve, ms).unref?.();
  });

/**
 * The direct transaction feedback: the signed fields POSTed (urlencoded) to the notification
 * endpoint, PUBLIC_URL + APS_FEEDBACK_PATH. Anything but a 200 (or no answer) is tried again
 * after each delay, then given up with one log line. Never throws: it runs unawaited.
 */
export async function sendFeedback(deps: Pick<ApsSandboxDeps, 'config' | 'gatewayFetch' | 'logError'>, fields: FormFields, delays: readonly number[]): Promise<boolean> {
  const url = `${deps.config.publicUrl}${APS_FEEDBACK_PATH}`;
  const body = new URLSearchParams(fields).toString();
  let lastFailure = 'no attempt';
  for (let attempt = 0; attempt <= delays.length; attempt += 1) {
    if (attempt > 0) await sleep(delays[attempt - 1]!);
    try {
      const res = await deps.gatewayFetch(url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        signal: AbortSignal.timeout(FEEDBACK_TIMEOUT_MS),
      });
      // The body is not needed; reading it frees the connection.
      await res.body?.cancel().catch(() => {});
      if (res.status === 200) return true;
      lastFailure = `HTTP ${res.status}`;
    } catch (error) {
      lastFailure = error instanceof Error ? error.constructor.name || error.name : typeof error;
    }
  }
  try {
    deps.logError({ event: 'error', request_id: crypto.randomUUID(), method: 'POST', route: APS_FEEDBACK_PATH, error: `ApsSandboxFeedbackGaveUp (${lastFailure})` });
  } catch {
    // A failing log sink must not become an unhandled rejection.
  }
  return false;
}
