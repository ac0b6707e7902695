import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import type { EnginePlan } from './quote-engine';

export type InsurerRow = typeof t.insurers.$inferSelect;
export type PlanRow = typeof t.plans.$inferSelect;
export type PlanRateRow = typeof t.planRates.$inferSelect;
export type PlanAddonRow = typeof t.planAddons.$inferSelect;
export type PlanFeatureRow = typeof t.planFeatures.$inferSelect;

/**
 * A plan with everything quoting, invoices and documents need: its insurer, rates, add-ons
 * (sorted) and features (highlights then benefits, each sorted), labels in English and Arabic.
 * It is also an EnginePlan, so the quote engine prices it as it is.
 */
export interface LoadedPlan extends PlanRow, EnginePlan {
  insurer: InsurerRow;
  rates: PlanRateRow[];
  addons: PlanAddonRow[];
  features: PlanFeatureRow[];
}

/**
 * Loads plans with their insurer, rates, add-ons and features. With `planIds`, exactly those
 * plans (active or not, so a stored quote can still be shown); with 'every', every plan; without,
 * every active plan of an active insurer. Ordered by plan sort, then id.
 */
export async function loadPlans(db: Db, planIds?: readonly number[] | 'every'): Promise<LoadedPlan[]> {
  if (planIds && planIds.length === 0) return [];
  const rows = await db
    .select({ plan: t.plans, insurer: t.insurers })
    .from(t.plans)
    .innerJoin(t.insurers, eq(t.insurers.id, t.plans.insurerId))
    .where(
      planIds === 'every'
        ? undefined
        : planIds
          ? inArray(t.plans.id, [...planIds])
          : and(eq(t.plans.active, true), eq(t.insurers.active, true)),
    )
    .orderBy(asc(t.plans.sort), asc(t.plans.id));
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.plan.id);
  // One after another, not Promise.all: `db` may be a transaction's one client (save-traveller.ts),
  // where node-postgres warns about concurrent queries (issue 18 item 4).
  const rates = await db.select().from(t.planRates).where(inArray(t.planRates.planId, ids));
  const addons = await db
    .select()
    .from(t.planAddons)
    .where(inArray(t.planAddons.planId, ids))
    .orderBy(asc(t.planAddons.sort), asc(t.planAddons.id));
  const features = await db
    .select()
    .from(t.planFeatures)
    .where(inArray(t.planFeatures.planId, ids))
    .orderBy(asc(t.planFeatures.section), asc(t.planFeatures.sort), asc(t.planFeatures.id));
  const byPlan = <R extends { planId: number }>(list: R[], planId: number) => list.filter((row) => row.planId === planId);
  return rows.map(({ plan, insurer }) => ({
    ...plan,
    insurer,
    rates: byPlan(rates, plan.id),
    addons: byPlan(addons, plan.id),
    // Highlights by section (1–3), then benefits (section 0) in their own order.
    features: [
      ...byPlan(features, plan.id).filter((f) => f.kind === 'highlight'),
      ...byPlan(features, plan.id).filter((f) => f.kind !== 'highlight'),
    ],
  }));
}

/** The whole catalogue as one copy: every plan (active or not) and every insurer. */
export interface Catalogue {
  plans: LoadedPlan[];
  insurers: InsurerRow[];
  /** What loadPlans(db) answers: active plans of active insurers, by sort then id. */
  active: LoadedPlan[];
  byId: ReadonlyMap<number, LoadedPlan>;
}

/** Loads the catalogue (quoting's reference data; reference/reference-data.ts keeps it per version). */
export async function loadCatalogue(db: Db): Promise<Catalogue> {
  const plans = await loadPlans(db, 'every');
  const insurers = await db.select().from(t.insurers).orderBy(asc(t.insurers.id));
  return {
    plans,
    insurers,
    active: plans.filter((plan) => plan.active && plan.insurer.active),
    byId: new Map(plans.map((plan) => [plan.id, plan])),
  };
}
