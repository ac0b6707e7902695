import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { backfillOrderContracts } from '../../src/server/orders/order-contract';
import { createPaymentTestApp, orderRow, placeOrder, leadAtCheckout } from './payment-fixtures';

/**
 * Issue 35 item 3: opening the database only migrates it; the contracts of orders paid before
 * migration 0008 are filled in by a start step of main.ts (backfillOrderContracts). The step
 * gives such an order the contract its lead and invoice describe, leaves every order that has
 * one alone, and does nothing the second time.
 */

let app: Awaited<ReturnType<typeof createPaymentTestApp>>;
beforeAll(async () => {
  app = await createPaymentTestApp();
});
afterAll(() => app.close());

describe('the start step that backfills order contracts', () => {
  it('gives a paid order without a contract the one temp-checkout would have frozen, and leaves it alone once it has one', async () => {
    // FREE100 pays the order at once (a total of 0): a paid order with its contract.
    const lead = await leadAtCheckout(app);
    const paid = await placeOrder(app, lead.uuid, { coupon: 'FREE100' });
    expect(paid.status).toBe('paid');
    const frozen = paid.contract;
    expect(frozen).not.toBeNull();

    // As an order paid before 0008 looks: no contract.
    await app.db.update(t.orders).set({ contract: null }).where(eq(t.orders.id, paid.id));
    expect(await backfillOrderContracts(app.db)).toBe(1);
    expect((await orderRow(app, paid.merchantReference)).contract).toEqual(frozen);

    // Nothing left to fill: a second start changes nothing.
    expect(await backfillOrderContracts(app.db)).toBe(0);
    expect((await orderRow(app, paid.merchantReference)).contract).toEqual(frozen);
  });
});
