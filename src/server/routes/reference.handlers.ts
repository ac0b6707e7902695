import { asc } from 'drizzle-orm';
import type * as v from 'valibot';
import type { Language, Option } from '../../contract/endpoint';
import {
  MASTER_LIST_KINDS,
  type companyInfoEndpoint,
  type countriesEndpoint,
  type countryCodesEndpoint,
  type relationshipsEndpoint,
  type travelConfigsEndpoint,
  type CompanyInfo,
  type Country,
  type CountryCode,
  type MasterItem,
  type MasterListKind,
} from '../../contract/reference.endpoints';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { readSettings, type Settings } from '../db/settings';
import { DEFAULT_SETTINGS, type SettingKey } from '../db/seed-data';
import { countryOtherNames } from '../reference/country-names';

type Input<E extends { request: v.GenericSchema }> = v.InferOutput<E['request']>;

/** Thrown when a filter names something that does not exist; the route answers 422 for it. */
export class UnknownReferenceError extends Error {
  constructor(readonly field: string) {
    super(`${field} not found`);
  }
}

const collators: Record<Language, Intl.Collator> = { en: new Intl.Collator('en'), ar: new Intl.Collator('ar') };

function named<T extends { nameEn: string; nameAr: string }>(row: T, lang: Language) {
  return lang === 'ar' ? row.nameAr : row.nameEn;
}

type CountryRow = typeof t.countries.$inferSelect;
type NamedRow = { id: number; nameEn: string; nameAr: string };

/**
 * The tables behind the reference endpoints, read in one go and kept per version of the
 * reference data (reference/reference-data.ts), so a request reads none of them.
 */
export interface ReferenceTables {
  countries: CountryRow[];
  /** Active master list items, by kind then sort. */
  masterItems: (NamedRow & { kind: string })[];
  /** Relationships by sort. */
  relationships: (NamedRow & { group: string })[];
  settings: Settings;
  companyInfo: (typeof t.companyInfo.$inferSelect)[];
  /** Per insurer id: whether it covers nationals of their destination, and the nationalities it refuses. */
  insurers: ReadonlyMap<number, { acceptsDestinationNationals: boolean; excluded: ReadonlySet<number> }>;
}

/** Reads the reference tables (seven queries, once per version of the data). */
export async function loadReferenceTables(db: Db): Promise<ReferenceTables> {
  const countries = await db.select().from(t.countries);
  const masterItems = await db.select().from(t.masterItems).orderBy(asc(t.masterItems.kind), asc(t.masterItems.sort));
  const relationships = await db.select().from(t.relationships).orderBy(asc(t.relationships.sort));
  const settings = await readSettings(db, Object.keys(DEFAULT_SETTINGS) as SettingKey[]);
  const companyInfo = await db.select().from(t.companyInfo);
  const insurerRows = await db.select({ id: t.insurers.id, accepts: t.insurers.acceptsDestinationNationals }).from(t.insurers);
  const exclusions = await db.select().from(t.insurerExcludedCountries);
  const insurers = new Map(
    insurerRows.map((row) => [
      row.id,
      {
        acceptsDestinationNationals: row.accepts,
        excluded: new Set(exclusions.filter((e) => e.insurerId === row.id).map((e) => e.countryId)),
      },
    ]),
  );
  return { countries, masterItems: masterItems.filter((row) => row.active), relationships, settings, companyInfo, insurers };
}

/**
 * Countries that are not nationality options for a trip, from the cached tables: the same rule
 * as reference/nationalities.ts (which save-traveller-info applies in its transaction). Null when
 * `insurerId` names no insurer.
 */
function excludedFor(tables: ReferenceTables, insurerId: number | null, destinationIds: readonly number[]): Set<number> | null {
  const excluded = new Set<number>();
  let keepDestinations = false;
  if (insurerId) {
    const insurer = tables.insurers.get(insurerId);
    if (!insurer) return null;
    keepDestinations = insurer.acceptsDestinationNationals;
    for (const id of insurer.excluded) excluded.add(id);
  }
  if (!keepDestinations) for (const id of destinationIds) excluded.add(id);
  return excluded;
}

/**
 * Countries in the asked language, sorted by that language's collation. destination_ids
 * removes the chosen destinations (nationality options, RULINGS 4) unless the insurer covers
 * nationals of their destination; insurance_provider_id also removes nationalities the
 * insurer does not cover (excludedNationalities, which save-traveller-info applies too).
 */
export function listCountries(tables: ReferenceTables, input: Input<typeof countriesEndpoint>) {
  const rows = tables.countries;
  const excluded = excludedFor(tables, input.insurance_provider_id ?? null, input.destination_ids ?? []);
  if (!excluded) throw new UnknownReferenceError('insurance_provider_id');

  const lang = input.lang;
  const countries: Country[] = rows
    .filter((row) => !excluded.has(row.id))
    .map((row) => ({
      id: row.id,
      iso2: row.iso2,
      iso3: row.iso3,
      name: named(row, lang),
      name_en: row.nameEn,
      name_ar: row.nameAr,
      phone_code: row.phoneCode,
      other_names: countryOtherNames(row.iso2, [row.nameEn, row.nameAr]),
    }))
    .sort((a, b) => collators[lang].compare(a.name, b.name));
  return {
    countries: input.isDropdown ? countries.map((c): Option => ({ value: String(c.id), label: c.name })) : countries,
  };
}

/**
 * Calling codes. Full form: one entry per country. Dropdown form: one entry per code (value
 * "+961"), labelled with the countries that share it, so a select never holds duplicates.
 */
export function listCountryCodes(tables: ReferenceTables, input: Input<typeof countryCodesEndpoint>) {
  const lang = input.lang;
  const rows = tables.countries;
  const codes: CountryCode[] = rows
    .map((row) => ({ id: row.id, iso2: row.iso2, code: row.phoneCode, name: named(row, lang) }))
    .sort((a, b) => collators[lang].compare(a.name, b.name));
  if (!input.isDropdown) return { codes };
  const byCode = new Map<string, string[]>();
  for (const entry of codes) byCode.set(entry.code, [...(byCode.get(entry.code) ?? []), entry.name]);
  const options: Option[] = [...byCode]
    .sort(([a], [b]) => Number(a.slice(1)) - Number(b.slice(1)))
    .map(([code, names]) => ({ value: code, label: `${code} ${names.join(lang === 'ar' ? '، ' : ', ')}` }));
  return { codes: options };
}

function shapeList(rows: { id: number; nameEn: string; nameAr: string }[], lang: Language, dropdown: boolean) {
  const items: MasterItem[] = rows.map((row) => ({
    id: row.id,
    name: named(row, lang),
    name_en: row.nameEn,
    name_ar: row.nameAr,
  }));
  return dropdown ? items.map((item): Option => ({ value: String(item.id), label: item.name })) : items;
}

/** Master lists of get-travel-configs, in both languages, with the broker's limits. */
export function travelConfigs(tables: ReferenceTables, input: Input<typeof travelConfigsEndpoint>) {
  const rows = tables.masterItems;
  const lists = Object.fromEntries(
    MASTER_LIST_KINDS.map((kind) => [
      kind,
      shapeList(
        rows.filter((row) => row.kind === kind),
        input.lang,
        input.isDropdown,
      ),
    ]),
  ) as Record<MasterListKind, ReturnType<typeof shapeList>>;
  const { max_traveller_count, family_child_max_age } = tables.settings;
  return { ...lists, max_traveller_count, family_child_max_age };
}

/** Relationship lists of /health/relationships. */
export function relationshipLists(tables: ReferenceTables, input: Input<typeof relationshipsEndpoint>) {
  const rows = tables.relationships;
  const group = (name: string) =>
    shapeList(
      rows.filter((row) => row.group === name),
      input.lang,
      input.isDropdown,
    );
  return { relationships: group('families'), domesticRelationships: group('domestics'), parentsRelationship: group('parents') };
}

/** VAT percent and stamp fee (US cents). */
export function vatAndStampFee(tables: ReferenceTables) {
  const { vat_percent, stamp_fee_cents } = tables.settings;
  return { vat: vat_percent, stamp_fee: stamp_fee_cents };
}

/** Company information in the asked language; English when that language has no row. */
export function companyInformation(tables: ReferenceTables, input: Input<typeof companyInfoEndpoint>): CompanyInfo {
  const rows = tables.companyInfo;
  const row = rows.find((r) => r.lang === input.lang) ?? rows.find((r) => r.lang === 'en');
  if (!row) throw new UnknownReferenceError('lang');
  const digits = row.whatsappNumber.replace(/\D/g, '');
  return {
    name: row.name,
    whatsapp_url: `https://wa.me/${digits}`,
    whatsapp_number: row.whatsappNumber,
    toll_free_number: row.tollFreeNumber,
    toll_free_number_tel: `tel:${row.tollFreeNumber.replace(/[^\d+]/g, '')}`,
    email: row.email,
    address: row.address,
    disclaimer: row.disclaimer,
    social: row.social,
  };
}
