import { and, countDistinct, eq, gte, sql, sum } from 'drizzle-orm';
import type { Funnel } from '../../contract/broker-console';
import type { FunnelStage } from '../../contract/broker-console';
import { FUNNEL_DAYS, type FunnelDays } from '../../contract/broker-console';
import { addDays, todayIso } from '../../contract/dates';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { centsText } from '../orders/order-admin';
import { textTable } from '../text-table';

/**
 * The sales funnel at a glance (issue 36 item 3, Today): the leads saved in the last 1, 7 or 30
 * days (today counting as one, UTC), and how many of them went on to quotes, chose a plan, reached
 * checkout (placed an order) and paid, each with the per cent of the stage before and of the
 * leads; then the money paid per day over the same days (orders paid, by the day they were paid).
 * A cohort of leads, so each stage is part of the one before and the per cents read as conversion.
 */

export { FUNNEL_DAYS, type FunnelDays };

export type { FunnelStage };

export type { Funnel };

const pct = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 1000) / 10);

export async function funnel(db: Db, days: FunnelDays, now: number): Promise<Funnel> {
  const today = todayIso(now);
  const from = addDays(today, 1 - days);
  const since = new Date(`${from}T00:00:00Z`);
  const cohort = gte(t.leads.createdAt, since);
  const [[leads], [quotes], [chosen], [checkouts], [paid], revenueRows] = await Promise.all([
    db.select({ n: countDistinct(t.leads.id) }).from(t.leads).where(cohort),
    db.select({ n: countDistinct(t.leads.id) }).from(t.leads).innerJoin(t.leadQuotes, eq(t.leadQuotes.leadId, t.leads.id)).where(cohort),
    db
      .select({ n: countDistinct(t.leads.id) })
      .from(t.leads)
      .innerJoin(t.leadTrackers, eq(t.leadTrackers.leadId, t.leads.id))
      .where(and(cohort, gte(t.leadTrackers.stage, 2))),
    db.select({ n: countDistinct(t.leads.id) }).from(t.leads).innerJoin(t.orders, eq(t.orders.leadId, t.leads.id)).where(cohort),
    db
      .select({ n: countDistinct(t.leads.id) })
      .from(t.leads)
      .innerJoin(t.orders, eq(t.orders.leadId, t.leads.id))
      .where(and(cohort, eq(t.orders.status, 'paid'))),
    db
      .select({ day: sql<string>`to_char(${t.orders.paidAt} at time zone 'UTC', 'YYYY-MM-DD')`, n: countDistinct(t.orders.id), cents: sum(t.orders.totalCents) })
      .from(t.orders)
      .where(and(eq(t.orders.status, 'paid'), gte(t.orders.paidAt, since)))
      .groupBy(sql`1`),
  ]);
  const counts = [leads!.n, quotes!.n, chosen!.n, checkouts!.n, paid!.n].map(Number);
  const names: FunnelStage['stage'][] = ['leads', 'quotes', 'plans_chosen', 'checkouts', 'paid'];
  const stages = names.map((stage, index) => ({
    stage,
    count: counts[index]!,
    of_previous_pct: index === 0 ? null : pct(counts[index]!, counts[index - 1]!),
    of_leads_pct: pct(counts[index]!, counts[0]!),
  }));
  const revenue = Array.from({ length: days }, (_, index) => {
    const day = addDays(from, index);
    const row = revenueRows.find((entry) => entry.day === day);
    return { day, paid_orders: row ? Number(row.n) : 0, cents: row ? Number(row.cents) : 0 };
  });
  return { days, from, stages, revenue };
}

const STAGE_NAMES: Record<FunnelStage['stage'], string> = { leads: 'leads', quotes: 'quotes', plans_chosen: 'plans chosen', checkouts: 'checkouts', paid: 'paid' };
const pctText = (value: number | null) => (value === null ? '—' : `${value.toFixed(1)} %`);

/** The funnel and the revenue per day as two aligned tables. */
export function formatFunnel(result: Funnel): string {
  const stages = textTable(
    ['stage', 'count', 'of the stage before', 'of the leads'],
    result.stages.map((stage) => [STAGE_NAMES[stage.stage], String(stage.count), pctText(stage.of_previous_pct), pctText(stage.of_leads_pct)]),
  );
  const revenue = textTable(['day', 'paid orders', 'revenue'], result.revenue.map((entry) => [entry.day, String(entry.paid_orders), centsText(entry.cents)]));
  return `Leads saved from ${result.from} to today (${result.days} ${result.days === 1 ? 'day' : 'days'}, UTC):\n${stages}\n\nPaid per day:\n${revenue}`;
}
