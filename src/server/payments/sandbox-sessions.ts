import { randomBytes } from 'node:crypto';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Language } from '../../contract/endpoint';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { queueSandboxFeedbackInTx } from './sandbox-feedback';
import type { CardError, CardField, FormFields, SandboxMerchant } from './sandbox-gateway';
import { refundResponse, type RefundRequest } from './sandbox-refund';

/**
 * The embedded APS sandbox's payment sessions (issue 17 item 9), in the database so that any
 * instance serves the next request. A posted PURCHASE request is kept under a random one-time id
 * and the browser is redirected (303) to the session's GET page: the card form, or, once the
 * session is answered, the page that hands the signed answer to the merchant. So every page the
 * browser keeps in its history is a GET, and Back never asks to resubmit a form. One merchant
 * reference opens one session, ever (openPurchaseSession), and a session is answered once
 * (answerSandboxSession): between them, one payment per reference.
 */

/** An unanswered session can be paid for this long (APS's own payment page times out too). */
export const SANDBOX_SESSION_TTL_MS = 60 * 60 * 1000;
/** Sessions are deleted a day after they were opened. */
const SANDBOX_SESSION_KEEP_MS = 24 * 60 * 60 * 1000;

/** 24 random bytes, base64url: 32 characters. */
export const SANDBOX_SESSION_ID = /^[A-Za-z0-9_-]{32}$/;

export type SandboxSession = typeof t.apsSandboxSessions.$inferSelect;

/** The card form the sandbox last refused in a session: what was typed (never the CVV) and why. */
export interface RefusedCardForm {
  values: Partial<Record<CardField, string>>;
  errors: Partial<Record<CardField, CardError>>;
}

interface SessionInput {
  request: FormFields;
  returnUrl: string;
  lang: Language;
  response?: FormFields;
}

const newSessionId = () => randomBytes(24).toString('base64url');

const pruneSessions = (db: Db, now: number) =>
  db.delete(t.apsSandboxSessions).where(lt(t.apsSandboxSessions.createdAt, new Date(now - SANDBOX_SESSION_KEEP_MS)));

async function insertSession(db: Db, id: string, input: SessionInput, now: number): Promise<void> {
  await db.insert(t.apsSandboxSessions).values({
    id,
    request: { ...input.request },
    returnUrl: input.returnUrl,
    lang: input.lang,
    response: input.response ? { ...input.response } : null,
    createdAt: new Date(now),
    answeredAt: input.response ? new Date(now) : null,
  });
}

/**
 * Opens a session already answered: a request refused at once, whose signed refusal the session
 * page hands to return_url. Sessions older than a day are removed on the way. Answers the new id.
 */
export async function openSandboxSession(db: Db, input: SessionInput & { response: FormFields }, now: number): Promise<string> {
  const id = newSessionId();
  await pruneSessions(db, now);
  await insertSession(db, id, input, now);
  return id;
}

/**
 * Opens the session of an accepted PURCHASE request (to be paid on the card page), claiming its
 * merchant reference in the same transaction (aps_sandbox_references, issue 33 item 3): null, and
 * no session, when an earlier request claimed it, whatever became of that one's payment. The
 * claim is the table's primary key, so of two requests posted at the same moment (two tabs, on
 * several instances) exactly one commits it; the other waits for that commit and finds it taken.
 * Sessions older than a day are removed on the way; their claims stay.
 */
export async function openPurchaseSession(db: Db, input: Omit<SessionInput, 'response'>, now: number): Promise<string | null> {
  const id = newSessionId();
  const reference = input.request.merchant_reference ?? '';
  await pruneSessions(db, now);
  return db.transaction(async (tx) => {
    const claimed = await tx
      .insert(t.apsSandboxReferences)
      .values({ merchantReference: reference, sessionId: id, createdAt: new Date(now) })
      .onConflictDoNothing({ target: t.apsSandboxReferences.merchantReference })
      .returning({ sessionId: t.apsSandboxReferences.sessionId });
    if (claimed.length !== 1) return null;
    await insertSession(tx, id, input, now);
    return id;
  });
}

/** The session with this id, or null (an id of the wrong shape is not looked up). */
export async function loadSandboxSession(db: Db, id: string): Promise<SandboxSession | null> {
  if (!SANDBOX_SESSION_ID.test(id)) return null;
  const [session] = await db.select().from(t.apsSandboxSessions).where(eq(t.apsSandboxSessions.id, id));
  return session ?? null;
}

/** Whether an unanswered session can no longer be paid. */
export const sandboxSessionExpired = (session: SandboxSession, now: number) =>
  session.response === null && now - session.createdAt.getTime() > SANDBOX_SESSION_TTL_MS;

/** Keeps the refused card form, for the card page to show again. */
export async function saveRefusedCardForm(db: Db, id: string, form: RefusedCardForm): Promise<void> {
  await db
    .update(t.apsSandboxSessions)
    .set({ cardForm: { values: { ...form.values }, errors: { ...form.errors } } })
    .where(and(eq(t.apsSandboxSessions.id, id), isNull(t.apsSandboxSessions.response)));
}

/**
 * Records the session's answer, once: true for the call that answered it, false when another
 * (a double click, a second tab) already had. What was typed is forgotten. The answer's direct
 * transaction feedback is queued in the same transaction (sandbox-feedback.ts), so an answered
 * session always has its feedback on the way, whatever happens to the process after the commit.
 */
export async function answerSandboxSession(db: Db, id: string, response: FormFields, now: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const answered = await tx
      .update(t.apsSandboxSessions)
      .set({ response: { ...response }, answeredAt: new Date(now), cardForm: null })
      .where(and(eq(t.apsSandboxSessions.id, id), isNull(t.apsSandboxSessions.response)))
      .returning({ id: t.apsSandboxSessions.id });
    if (answered.length !== 1) return false;
    // A capture is kept for the REFUNDs that may name it later (sandbox-refund.ts), past the session's pruning.
    if (response.status === '14' && response.fort_id && /^[0-9]{1,9}$/.test(response.amount ?? '')) {
      await tx
        .insert(t.apsSandboxCaptures)
        .values({ fortId: response.fort_id, merchantReference: response.merchant_reference ?? '', amountCents: Number(response.amount), currency: response.currency ?? '', createdAt: new Date(now) })
        .onConflictDoNothing();
    }
    await queueSandboxFeedbackInTx(tx, response, now);
    return true;
  });
}

/**
 * Answers a REFUND the sandbox took (issue 36 item 4), once per maintenance reference: the capture
 * it names is locked, so two REFUNDs of one capture at the same moment are answered one after the
 * other and never give back more than it took together. A maintenance reference answered already
 * (a retry after a crash or a lost answer) gets the answer it got, and nothing is given back again.
 */
export async function answerSandboxRefund(db: Db, request: RefundRequest, merchant: SandboxMerchant, now: number): Promise<FormFields> {
  return db.transaction(async (tx) => {
    const [capture] = await tx.select().from(t.apsSandboxCaptures).where(eq(t.apsSandboxCaptures.fortId, request.fortId)).for('update');
    if (request.maintenanceReference !== null) {
      const [earlier] = await tx.select().from(t.apsSandboxRefunds).where(eq(t.apsSandboxRefunds.maintenanceReference, request.maintenanceReference));
      if (earlier) return earlier.response;
    }
    const { response, refunded } = refundResponse(request, capture ?? null, merchant);
    if (refunded) {
      await tx
        .update(t.apsSandboxCaptures)
        .set({ refundedCents: sql`${t.apsSandboxCaptures.refundedCents} + ${request.amountCents}` })
        .where(eq(t.apsSandboxCaptures.fortId, request.fortId));
    }
    if (request.maintenanceReference !== null) {
      // A refusal of a capture unknown (no lock taken) may race its twin: the same answer either way.
      await tx
        .insert(t.apsSandboxRefunds)
        .values({ maintenanceReference: request.maintenanceReference, fortId: request.fortId, response: { ...response }, createdAt: new Date(now) })
        .onConflictDoNothing();
    }
    return response;
  });
}
