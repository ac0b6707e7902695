import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import type { LeadTestApp } from './lead-fixtures';
import { apsResponse, createPaymentTestApp, newFortId, pendingOrder, placeOrder, postNotice } from './payment-fixtures';

/**
 * Migration 0014 (issue 33 item 3) starts the refunds list complete: the captures taken before it
 * existed are each 'refund' order's own, and every further success applied to a paid order, which
 * until then was only a payment_duplicate log line. Its backfill statements are run again on a
 * database whose refunds rows were removed, as one migrated from 0013 would hold them.
 */

const MIGRATION = new URL('../../src/server/db/migrations/0014_refunds.sql', import.meta.url);
/** The statements that fill the new table (the ones after CREATE TABLE and its indexes). */
const backfill = readFileSync(MIGRATION, 'utf8')
  .split('--> statement-breakpoint')
  .filter((statement) => /INSERT INTO "refunds"/.test(statement));

let app: LeadTestApp;
beforeAll(async () => {
  app = await createPaymentTestApp();
});
afterAll(() => app.close());

describe('migration 0014 on payments recorded before the refunds table', () => {
  it("records each 'refund' order's capture with its reason and each further capture of a paid order as charged_again, at what the order charged, once", async () => {
    const first = await pendingOrder(app);
    const second = await placeOrder(app, first.lead.uuid);
    const paid = apsResponse(first.order);
    const again = apsResponse(first.order, { fort_id: newFortId() });
    const twice = apsResponse(second);
    for (const fields of [paid, again, twice]) expect((await postNotice(app, 'feedback', fields)).status).toBe(200);
    await app.db.delete(t.refunds);

    for (const statement of backfill) await app.db.execute(sql.raw(statement));
    // Run twice, as a migration retried would: nothing is recorded twice.
    for (const statement of backfill) await app.db.execute(sql.raw(statement));

    const rows = await app.db.select().from(t.refunds).orderBy(t.refunds.fortId);
    expect(rows.map(({ orderId, merchantReference, fortId, amountCents, currency, reason, noticeId }) => ({ orderId, merchantReference, fortId, amountCents, currency, reason, noticeId }))).toEqual(
      [
        { orderId: first.order.id, merchantReference: first.order.merchantReference, fortId: again.fort_id, amountCents: first.order.totalCents, currency: 'USD', reason: 'charged_again', noticeId: null },
        { orderId: second.id, merchantReference: second.merchantReference, fortId: twice.fort_id, amountCents: second.totalCents, currency: 'USD', reason: 'paid_twice', noticeId: null },
      ].sort((a, b) => a.fortId!.localeCompare(b.fortId!)),
    );
  });
});
