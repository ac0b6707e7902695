import { isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono, type Context } from 'hono';
import type { AppConfig } from '../config';
import { APS_SANDBOX_API_PATH, APS_SANDBOX_PAYMENT_PAGE_PATH } from '../config';
import type { AppEnv } from '../http/app-env';
import {
  CARD_FIELDS,
  checkPurchaseRequest,
  duplicateReferenceResponse,
  newAuthorizationCode,
  newFortId,
  parseFormBody,
  purchaseResponse,
  readCard,
  type CardField,
  type FormFields,
} from '../payments/sandbox-gateway';
import {
  CARD_SCRIPT,
  cardPageHtml,
  RETURN_SCRIPT,
  returnPageHtml,
  SANDBOX_CARD_SCRIPT_PATH,
  SANDBOX_PAY_PATH,
  SANDBOX_RETURN_SCRIPT_PATH,
  sandboxErrorPageHtml,
  sandboxLanguage,
  sandboxSessionPath,
} from '../payments/sandbox-pages';
import { checkRefundRequest } from '../payments/sandbox-refund';
import {
  answerSandboxRefund,
  answerSandboxSession,
  loadSandboxSession,
  openPurchaseSession,
  openSandboxSession,
  sandboxSessionExpired,
  saveRefusedCardForm,
  type RefusedCardForm,
  type SandboxSession,
} from '../payments/sandbox-sessions';
import type { Db } from '../db/client';
import { seeOther } from '../payments/see-other';
import type { OutboxWorker } from '../mail/outbox';

export interface ApsSandboxDeps {
  db: Db;
  config: AppConfig;
  now: () => number;
  /** The aps-feedback queue's worker (payments/sandbox-feedback.ts), nudged once an answer and its feedback are committed. */
  feedbackWorker: Pick<OutboxWorker, 'nudge'>;
}

/**
 * The embedded Amazon Payment Services sandbox (RULINGS 20), mounted when APS_GATEWAY_URL is
 * empty. It implements the redirection contract the payments page speaks, with Post/Redirect/Get
 * throughout (issue 17 item 9: Back from the result must never land on a POST's answer):
 * - POST paymentPage (APS's own is /FortAPI/paymentPage): the PURCHASE form. A valid, signed
 *   request is kept under a random one-time id (sandbox-sessions.ts, in the database) and the
 *   browser is sent (303) to GET pay/<id>, the card page. A bad signature or a missing or
 *   malformed field gets a session already answered with APS's refusal (status 00), sent back
 *   to return_url the same way, and so does a valid request whose merchant reference an earlier
 *   PURCHASE carried (00007 Duplicate order number: APS takes one PURCHASE per reference, issue 33
 *   item 3); without a usable return_url or for another merchant, a 400 page.
 * - POST pay/<id>: the card form, posted to its own address. A refused card is kept with its
 *   errors and the card page shown again (303 to the same GET); Pay or Cancel answers the
 *   session once, with the signed response, and queues that response in the same transaction
 *   as the direct transaction feedback to the notification endpoint (the outbox's aps-feedback
 *   queue, payments/sandbox-feedback.ts: retried with backoff until a 200 answers, delivered
 *   after a restart too); then 303 to the same GET.
 * - GET pay/<id>: the card page while unanswered (an hour), then the page that hands the
 *   signed response to return_url; an unknown or expired id, a 404 page.
 * - GET card.js and return.js: the scripts of those pages (CSP: scripts from this origin only),
 *   which post in the background and replace the page, so the whole payment leaves one entry in
 *   the browser's history and Back from the merchant's result goes to the merchant's payments page.
 * - POST paymentApi (APS's own is /FortAPI/paymentApi): the REFUND command, JSON (sandbox-refund.ts).
 * Every page answers `Cache-Control: no-store`; card.js also reloads a card page the browser
 * restores from its back/forward cache, which keeps no-store pages too (sandbox-pages.ts).
 */
export function apsSandboxRoutes(deps: ApsSandboxDeps) {
  const app = new Hono<AppEnv>();

  app.post(APS_SANDBOX_PAYMENT_PAGE_PATH, async (c) => {
    const { fields, duplicated } = parseFormBody(c.get('rawBody') ?? '');
    const check = checkPurchaseRequest(fields, deps.config, duplicated);
    const lang = sandboxLanguage(fields);
    if (check.kind === 'no_return_url') return page(c, 400, sandboxErrorPageHtml({ lang, reason: 'sandbox_no_return_url_text' }));
    if (check.kind === 'unknown_merchant') return page(c, 400, sandboxErrorPageHtml({ lang, reason: 'sandbox_unknown_merchant_text' }));
    if (check.kind === 'refused') {
      return seeOther(c, sandboxSessionPath(await openSandboxSession(deps.db, { request: {}, returnUrl: check.returnUrl, lang, response: check.response }, deps.now())));
    }
    const returnUrl = check.request.return_url!;
    const opened = await openPurchaseSession(deps.db, { request: check.request, returnUrl, lang }, deps.now());
    if (opened) return seeOther(c, sandboxSessionPath(opened));
    // Its merchant reference had its PURCHASE already (a second tab, Back and Pay again): refused as APS refuses it.
    const response = duplicateReferenceResponse(check.request, deps.config);
    return seeOther(c, sandboxSessionPath(await openSandboxSession(deps.db, { request: {}, returnUrl, lang, response }, deps.now())));
  });

  app.get(`${SANDBOX_PAY_PATH}/:id`, async (c) => {
    const session = await openSession(c);
    if (!session) return unknownSession(c);
    if (session.response) return page(c, 200, returnPageHtml({ lang: sessionLanguage(session), returnUrl: session.returnUrl, response: session.response }));
    const refused = session.cardForm as RefusedCardForm | null;
    return page(c, 200, cardPageHtml({ request: session.request, action: sandboxSessionPath(session.id), values: refused?.values, errors: refused?.errors }));
  });

  app.post(`${SANDBOX_PAY_PATH}/:id`, async (c) => {
    const session = await openSession(c);
    if (!session) return unknownSession(c);
    const again = sandboxSessionPath(session.id);
    // Answered already (a double click, a second tab, a reload of the post): the same answer, no new transaction.
    if (session.response) return seeOther(c, again);

    const { fields: posted } = parseFormBody(c.get('rawBody') ?? '');
    const ids = { fortId: newFortId(), authorizationCode: newAuthorizationCode(), customerIp: customerIp(c, deps.config.trustProxy) };
    let response: FormFields;
    if (posted.action === 'cancel') response = purchaseResponse(session.request, { action: 'cancel' }, ids, deps.config);
    else {
      const typed = Object.fromEntries(CARD_FIELDS.map((name) => [name, posted[name] ?? ''])) as Record<CardField, string>;
      const card = readCard(typed, deps.now());
      if (!card.ok) {
        const { card_security_code: _never, ...kept } = typed;
        await saveRefusedCardForm(deps.db, session.id, { values: kept, errors: card.errors });
        return seeOther(c, again);
      }
      response = purchaseResponse(session.request, { action: 'pay', card: card.card }, ids, deps.config);
    }
    // Not awaited, as APS posts its feedback beside the browser's return: the customer's page does not wait for it.
    if (await answerSandboxSession(deps.db, session.id, response, deps.now())) void deps.feedbackWorker.nudge();
    return seeOther(c, again);
  });

  // The REFUND command (issue 36 item 4): server to server, JSON in and out, always answered 200
  // with APS's status (06 refunded, 07 refused, 00 a request not taken), signed.
  app.post(APS_SANDBOX_API_PATH, async (c) => {
    let body: unknown = null;
    try {
      body = JSON.parse(c.get('rawBody') ?? '');
    } catch {
      // Not JSON: refused below as a request missing its fields.
    }
    const check = checkRefundRequest(body, deps.config);
    c.header('Cache-Control', 'no-store');
    if (!check.ok) return c.json(check.response, 200);
    return c.json(await answerSandboxRefund(deps.db, check.request, deps.config, deps.now()), 200);
  });

  for (const [path, script] of [
    [SANDBOX_RETURN_SCRIPT_PATH, RETURN_SCRIPT],
    [SANDBOX_CARD_SCRIPT_PATH, CARD_SCRIPT],
  ] as const) {
    app.get(path, (c) => {
      c.header('Content-Type', 'text/javascript; charset=utf-8');
      c.header('Cache-Control', 'public, max-age=300');
      return c.body(script);
    });
  }

  // Opened by hand: there is no request to show.
  app.get(APS_SANDBOX_PAYMENT_PAGE_PATH, (c) => {
    c.header('Allow', 'POST');
    return page(c, 405, sandboxErrorPageHtml({ lang: c.req.query('language') === 'ar' ? 'ar' : 'en', reason: 'sandbox_post_only_text' }));
  });

  /** The session named in the path, while it can still be shown (null: unknown, or unanswered past its hour). */
  async function openSession(c: Context<AppEnv>): Promise<SandboxSession | null> {
    const session = await loadSandboxSession(deps.db, c.req.param('id') ?? '');
    return session && !sandboxSessionExpired(session, deps.now()) ? session : null;
  }

  return app;
}

const sessionLanguage = (session: SandboxSession) => (session.lang === 'ar' ? 'ar' : 'en');

const unknownSession = (c: Context<AppEnv>) =>
  page(c, 404, sandboxErrorPageHtml({ lang: c.req.query('language') === 'ar' ? 'ar' : 'en', reason: 'sandbox_session_unknown_text' }));

function page(c: Context<AppEnv>, status: 200 | 400 | 404 | 405, body: string) {
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
