import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBrokerArgs } from '../../src/server/admin/broker-commands';
import type { Funnel } from '../../src/server/admin/funnel';
import * as t from '../../src/server/db/schema';
import { FIXED_NOW, leadBody, type LeadTestApp } from './lead-fixtures';
import { createPaymentTestApp, leadAtCheckout, payOnCardPage, pendingOrder } from './payment-fixtures';

/**
 * `npm run broker -- today` (issue 36 item 3): the funnel of the leads saved in the last 1, 7 or
 * 30 days, each stage part of the one before, and the money paid per day. Its own database, so
 * the counts are this file's leads only.
 */

const DAY = 86_400_000;
let app: LeadTestApp;

beforeAll(async () => {
  app = await createPaymentTestApp();
});
afterAll(() => app.close());

const today = async (days: 1 | 7 | 30) => (await runBrokerArgs(app.db, ['today', '--days', String(days), '--json'], FIXED_NOW)).json as Funnel;

describe('npm run broker -- today', () => {
  it('counts a saved lead, one at checkout, one with an order and one paid as a funnel with per cents, the revenue on the day paid, and an older lead only in the 30 days', async () => {
    // A lead saved ten days ago: saved now, then dated back (a signed request carries today's time).
    const older = await app.save(leadBody());
    await app.db.update(t.leads).set({ createdAt: new Date(FIXED_NOW - 10 * DAY) }).where(eq(t.leads.uuid, older.uuid));
    await app.save(leadBody());
    await leadAtCheckout(app);
    await pendingOrder(app);
    const { order } = await pendingOrder(app);
    await payOnCardPage(app, order);
    await app.app.feedbackWorker.drain();

    const day = await today(1);
    expect(day.from).toBe('2026-03-15');
    expect(day.stages).toEqual([
      { stage: 'leads', count: 4, of_previous_pct: null, of_leads_pct: 100 },
      { stage: 'quotes', count: 3, of_previous_pct: 75, of_leads_pct: 75 },
      { stage: 'plans_chosen', count: 3, of_previous_pct: 100, of_leads_pct: 75 },
      { stage: 'checkouts', count: 2, of_previous_pct: 66.7, of_leads_pct: 50 },
      { stage: 'paid', count: 1, of_previous_pct: 50, of_leads_pct: 25 },
    ]);
    expect(day.revenue).toEqual([{ day: '2026-03-15', paid_orders: 1, cents: order.totalCents }]);

    const month = await today(30);
    expect(month.stages[0]).toMatchObject({ stage: 'leads', count: 5 });
    expect(month.revenue).toHaveLength(30);
    expect(month.revenue.filter((entry) => entry.cents > 0)).toEqual([{ day: '2026-03-15', paid_orders: 1, cents: order.totalCents }]);
    expect((await today(7)).stages[0]!.count).toBe(4);

    const text = (await runBrokerArgs(app.db, ['today', '--days=1'], FIXED_NOW)).out;
    expect(text).toContain('Leads saved from 2026-03-15 to today (1 day, UTC):');
    expect(text).toMatch(/checkouts\s+2\s+66\.7 %\s+50\.0 %/);
    expect(text).toMatch(new RegExp(`2026-03-15\\s+1\\s+\\$${(order.totalCents / 100).toFixed(2)}`));
    expect((await runBrokerArgs(app.db, ['today', '--days', '14'], FIXED_NOW)).err.split('\n')[0]).toBe('--days is one of 1, 7, 30.');
  });
});
