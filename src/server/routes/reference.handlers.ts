import { asc, eq } from 'drizzle-orm';
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
import { readSettings } from '../db/settings';
import { countryOtherNames } from '../reference/country-names';
import { excludedNationalities } from '../reference/nationalities';

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

/**
 * Countries in the asked language, sorted by that language's collation. destination_ids
 * removes the chosen destinations (nationality options, RULINGS 4) unless the insurer covers
 * nationals of their destination; insurance_provider_id also removes nationalities the
 * insurer does not cover (excludedNationalities, which save-traveller-info applies too).
 */
export async function listCountries(db: Db, input: Input<typeof countriesEndpoint>) {
  const rows = await db.select().from(t.countries);
  const excluded = await excludedNationalities(db, input.insurance_provider_id ?? null, input.destination_ids ?? []);
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
export async function listCountryCodes(db: Db, input: Input<typeof countryCodesEndpoint>) {
  const lang = input.lang;
  const rows = await db.select().from(t.countries);
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
export async function travelConfigs(db: Db, input: Input<typeof travelConfigsEndpoint>) {
  const rows = await db
    .select()
    .from(t.masterItems)
    .where(eq(t.masterItems.active, true))
    .orderBy(asc(t.masterItems.kind), asc(t.masterItems.sort));
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
  const limits = await readSettings(db, ['max_traveller_count', 'family_child_max_age']);
  return { ...lists, ...limits };
}

/** Relationship lists of /health/relationships. */
export async function relationshipLists(db: Db, input: Input<typeof relationshipsEndpoint>) {
  const rows = await db.select().from(t.relationships).orderBy(asc(t.relationships.sort));
  const group = (name: string) =>
    shapeList(
      rows.filter((row) => row.group === name),
      input.lang,
      input.isDropdown,
    );
  return { relationships: group('families'), domesticRelationships: group('domestics'), parentsRelationship: group('parents') };
}

/** VAT percent and stamp fee (US cents). */
export async function vatAndStampFee(db: Db) {
  const { vat_percent, stamp_fee_cents } = await readSettings(db, ['vat_percent', 'stamp_fee_cents']);
  return { vat: vat_percent, stamp_fee: stamp_fee_cents };
}

/** Company information in the asked language; English when that language has no row. */
export async function companyInformation(db: Db, input: Input<typeof companyInfoEndpoint>): Promise<CompanyInfo> {
  const rows = await db.select().from(t.companyInfo);
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
