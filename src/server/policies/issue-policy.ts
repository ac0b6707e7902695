import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { queuePolicyMailInTx } from '../mail/outbox';

const NUMBER_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A policy number: `SFR-<yy>-<8 characters>`, e.g. SFR-26-7K3Q9M2T. The characters are random
 * (Crockford's alphabet: no I, L, O or U to misread on the phone), so numbers reveal nothing
 * about how many policies were sold; the unique index, with a retry, makes each one unique.
 */
export function policyNumber(now: number): string {
  const year = String(new Date(now).getUTCFullYear()).slice(-2);
  const random = [...randomBytes(8)].map((byte) => NUMBER_ALPHABET[byte % NUMBER_ALPHABET.length]).join('');
  return `SFR-${year}-${random}`;
}

/** 32 random bytes, base64url: the unguessable name of a certificate's download link. */
export const downloadToken = () => randomBytes(32).toString('base64url');

/** The certificate's download path (served by policies.routes.ts). */
export const certificatePath = (token: string) => `/policies/${token}/certificate.pdf`;

/**
 * Issues the policy of a paid order inside the transaction that paid it (RULINGS 21): exactly
 * one per order, whoever calls and however often (the unique order_id decides). `created` is
 * true only for the call that wrote it, which also queues its certificate mail in the same
 * transaction (mail/outbox.ts): the outbox worker sends it, after any crash.
 */
export async function issuePolicyInTx(
  tx: Db,
  order: { id: number; leadId: number },
  now: number,
): Promise<{ policyId: number; created: boolean }> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const inserted = await tx
      .insert(t.policies)
      .values({ orderId: order.id, leadId: order.leadId, policyNumber: policyNumber(now), downloadToken: downloadToken(), issuedAt: new Date(now) })
      .onConflictDoNothing()
      .returning({ id: t.policies.id });
    if (inserted[0]) {
      await queuePolicyMailInTx(tx, inserted[0].id, now);
      return { policyId: inserted[0].id, created: true };
    }
    const [existing] = await tx.select({ id: t.policies.id }).from(t.policies).where(eq(t.policies.orderId, order.id));
    if (existing) return { policyId: existing.id, created: false };
    // Neither inserted nor there: a policy number or token collided; draw again.
  }
  throw new Error('no unique policy number after 5 attempts');
}
