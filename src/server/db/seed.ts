import { and, eq, isNull, or, sql } from 'drizzle-orm';
import iso from 'i18n-iso-countries';
import enNames from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import arNames from 'i18n-iso-countries/langs/ar.json' with { type: 'json' };
import { countries as countryFacts } from 'countries-list';
import type { Db } from './client';
import * as t from './schema';
import { seedCatalogue } from './seed-catalogue';
import { AGENTS, COMPANY_INFO, DEFAULT_SETTINGS, DEMO_COUPONS, INSURERS, MASTER_LISTS, RELATIONSHIP_LISTS } from './seed-data';

iso.registerLocale(enNames);
iso.registerLocale(arNames);

/** Every ISO 3166-1 country with English and Arabic names and its calling code. */
export function countryRows(): (typeof t.countries.$inferInsert)[] {
  return Object.keys(iso.getAlpha2Codes()).flatMap((iso2) => {
    const numeric = Number(iso.alpha2ToNumeric(iso2));
    const facts = countryFacts[iso2 as keyof typeof countryFacts];
    const nameEn = iso.getName(iso2, 'en');
    const nameAr = iso.getName(iso2, 'ar');
    if (!numeric || !facts || !nameEn || !nameAr) return [];
    return [{ id: numeric, iso2, iso3: iso.alpha2ToAlpha3(iso2) ?? iso2, nameEn, nameAr, phoneCode: `+${facts.phone[0]}` }];
  });
}

/** What seedDatabase inserts beside the reference data. */
export interface SeedOptions {
  /**
   * The demo coupons and demo agents (RULINGS 27: only where the embedded sandbox gateway runs).
   * Off unless asked for, so a caller that forgets cannot put FREE100 in front of a real gateway.
   */
  demoData?: boolean;
}

/** The rows of `rows` whose key is not among `stored`: what an insert of them would add. */
function missing<R>(rows: readonly R[], stored: readonly string[], key: (row: R) => string): R[] {
  const have = new Set(stored);
  return rows.filter((row) => !have.has(key(row)));
}

/**
 * Inserts reference data that is missing. Country names follow the data package (updated on
 * each start); everything else the broker may have edited is left alone.
 *
 * It runs at every start (issue 34 item 6), so it reads what each table holds (one small select
 * each, sent together) and writes only the rows that are missing: on a seeded database, nothing.
 * Inserting every row with ON CONFLICT DO NOTHING, as before, cost a write, a WAL record and the
 * table's reference-version trigger per statement (about 1 s of a restart under load, and every
 * other instance's reference cache dropped at each start). Each insert keeps ON CONFLICT DO
 * NOTHING, for two instances starting together on one PostgreSQL.
 */
export async function seedDatabase(db: Db, options: SeedOptions = {}): Promise<void> {
  const rows = countryRows();
  const masterRows = Object.entries(MASTER_LISTS).flatMap(([kind, items]) => items.map((item, sort) => ({ kind, id: item.id, nameEn: item.en, nameAr: item.ar, sort })));
  const relationshipRows = Object.entries(RELATIONSHIP_LISTS).flatMap(([group, items]) =>
    items.map((item, sort) => ({ group, id: item.id, nameEn: item.en, nameAr: item.ar, sort })),
  );
  const iso2ToId = new Map(rows.map((row) => [row.iso2, row.id]));
  const exclusions = INSURERS.flatMap((insurer) => insurer.excluded.map((iso2) => ({ insurerId: insurer.id, countryId: iso2ToId.get(iso2)! })));
  const { en, ar, ...shared } = COMPANY_INFO;
  const companyRows = [
    { lang: 'en', ...shared, ...en },
    { lang: 'ar', ...shared, ...ar },
  ];

  const [storedCountries, storedMaster, storedRelationships, storedSettings, storedInsurers, storedExclusions, storedCompany, storedAgents, storedCoupons] =
    await Promise.all([
      db.select({ id: t.countries.id, nameEn: t.countries.nameEn, nameAr: t.countries.nameAr, phoneCode: t.countries.phoneCode }).from(t.countries),
      db.select({ kind: t.masterItems.kind, id: t.masterItems.id }).from(t.masterItems),
      db.select({ group: t.relationships.group, id: t.relationships.id }).from(t.relationships),
      db.select({ key: t.settings.key }).from(t.settings),
      db.select({ id: t.insurers.id }).from(t.insurers),
      db.select({ insurerId: t.insurerExcludedCountries.insurerId, countryId: t.insurerExcludedCountries.countryId }).from(t.insurerExcludedCountries),
      db.select({ lang: t.companyInfo.lang }).from(t.companyInfo),
      options.demoData ? db.select({ id: t.agents.id }).from(t.agents) : [],
      options.demoData ? db.select({ code: t.coupons.code }).from(t.coupons) : [],
    ]);

  // Only the countries that are new or whose names or code changed are written: rewriting all 249
  // on every start was most of what seeding an existing database cost (issue 19 part 4).
  const stored = new Map(storedCountries.map((row) => [row.id, row]));
  const changed = rows.filter((row) => {
    const was = stored.get(row.id);
    return !was || was.nameEn !== row.nameEn || was.nameAr !== row.nameAr || was.phoneCode !== row.phoneCode;
  });
  if (changed.length) {
    await db
      .insert(t.countries)
      .values(changed)
      .onConflictDoUpdate({
        target: t.countries.id,
        set: { nameEn: sql`excluded.name_en`, nameAr: sql`excluded.name_ar`, phoneCode: sql`excluded.phone_code` },
      });
  }

  const kindAndId = (row: { kind: string; id: number }) => `${row.kind}/${row.id}`;
  const newMaster = missing(masterRows, storedMaster.map(kindAndId), kindAndId);
  if (newMaster.length) await db.insert(t.masterItems).values(newMaster).onConflictDoNothing();

  const groupAndId = (row: { group: string; id: number }) => `${row.group}/${row.id}`;
  const newRelationships = missing(relationshipRows, storedRelationships.map(groupAndId), groupAndId);
  if (newRelationships.length) await db.insert(t.relationships).values(newRelationships).onConflictDoNothing();

  const newSettings = missing(
    Object.entries(DEFAULT_SETTINGS).map(([key, value]) => ({ key, value })),
    storedSettings.map((row) => row.key),
    (row) => row.key,
  );
  if (newSettings.length) await db.insert(t.settings).values(newSettings).onConflictDoNothing();

  const newInsurers = missing(
    INSURERS.map(({ excluded: _excluded, ...insurer }) => insurer),
    storedInsurers.map((row) => String(row.id)),
    (row) => String(row.id),
  );
  if (newInsurers.length) await db.insert(t.insurers).values(newInsurers).onConflictDoNothing();
  const pair = (row: { insurerId: number; countryId: number }) => `${row.insurerId}/${row.countryId}`;
  const newExclusions = missing(exclusions, storedExclusions.map(pair), pair);
  if (newExclusions.length) await db.insert(t.insurerExcludedCountries).values(newExclusions).onConflictDoNothing();

  await seedCatalogue(db);

  if (options.demoData) {
    const newAgents = missing(AGENTS, storedAgents.map((row) => String(row.id)), (agent) => String(agent.id));
    if (newAgents.length) await db.insert(t.agents).values(newAgents).onConflictDoNothing();
    // By code only: a demo coupon the broker disabled or changed is left as it is.
    const newCoupons = missing(DEMO_COUPONS, storedCoupons.map((row) => row.code), (coupon) => coupon.code);
    if (newCoupons.length) {
      await db
        .insert(t.coupons)
        .values(newCoupons.map((coupon) => ({ ...coupon })))
        .onConflictDoNothing({ target: t.coupons.code });
    }
  }

  const newCompany = missing(companyRows, storedCompany.map((row) => row.lang), (row) => row.lang);
  if (newCompany.length) await db.insert(t.companyInfo).values(newCompany).onConflictDoNothing();
}

/** The demo coupons and agents one start disabled: codes and ids, sorted. */
export interface DisabledDemoData {
  coupons: string[];
  agents: number[];
}

/**
 * Disables (active = false) every demo coupon and demo agent that still has exactly what the seed
 * gave it, for a start without demo data (RULINGS 27: a database seeded by a sandbox start, then
 * started against a real gateway). A row the broker changed in any seeded column, or disabled
 * already, is theirs and left alone; a coupon's uses are the customers', not an edit. Answers
 * what it disabled, so the start can say so. Pending orders with a disabled coupon lapse at the
 * payments page and the gateway's notice (order-state.ts lapseOf), as after `coupons disable`.
 */
export async function disableDemoData(db: Db): Promise<DisabledDemoData> {
  return db.transaction(async (tx) => {
    const coupons = await tx
      .update(t.coupons)
      .set({ active: false })
      .where(
        and(
          eq(t.coupons.active, true),
          or(
            ...DEMO_COUPONS.map((coupon) =>
              and(
                eq(t.coupons.code, coupon.code),
                eq(t.coupons.discountType, coupon.discountType),
                eq(t.coupons.discountValue, coupon.discountValue),
                eq(t.coupons.validFrom, coupon.validFrom),
                eq(t.coupons.validTo, coupon.validTo),
                // A seeded null must match SQL null, which `=` never does.
                coupon.usageLimit === null ? isNull(t.coupons.usageLimit) : eq(t.coupons.usageLimit, coupon.usageLimit),
                coupon.providerId === null ? isNull(t.coupons.providerId) : eq(t.coupons.providerId, coupon.providerId),
              ),
            ),
          ),
        ),
      )
      .returning({ code: t.coupons.code });
    const agents = await tx
      .update(t.agents)
      .set({ active: false })
      .where(
        and(
          eq(t.agents.active, true),
          or(...AGENTS.map((agent) => and(eq(t.agents.id, agent.id), eq(t.agents.name, agent.name), eq(t.agents.email, agent.email)))),
        ),
      )
      .returning({ id: t.agents.id });
    return {
      coupons: coupons.map((row) => row.code).sort(),
      agents: agents.map((row) => row.id).sort((a, b) => a - b),
    };
  });
}
