import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Nonces of signed requests seen in the last few minutes. Kept in the database so several
 * instances behind one load balancer refuse the same replay. The key is nonce + signature:
 * the spec's nonce is a millisecond clock, so two honest clients can share one, but a replay
 * repeats both.
 */
export const requestNonces = pgTable(
  'request_nonces',
  {
    nonce: text('nonce').notNull(),
    signature: text('signature').notNull(),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.nonce, t.signature] }), index('request_nonces_seen_at_idx').on(t.seenAt)],
);

/** Broker settings (max travellers, VAT, stamp fee, family child age), one JSON value per key. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
});

/** Countries, ISO 3166-1 numeric ids, names in English and Arabic from i18n-iso-countries. */
export const countries = pgTable('countries', {
  id: integer('id').primaryKey(),
  iso2: text('iso2').notNull().unique(),
  iso3: text('iso3').notNull(),
  nameEn: text('name_en').notNull(),
  nameAr: text('name_ar').notNull(),
  phoneCode: text('phone_code').notNull(),
});

/** Master lists of get-travel-configs: genders, titles (prefex), marital status, relation and product types. */
export const masterItems = pgTable(
  'master_items',
  {
    kind: text('kind').notNull(),
    id: integer('id').notNull(),
    nameEn: text('name_en').notNull(),
    nameAr: text('name_ar').notNull(),
    sort: integer('sort').notNull().default(0),
    active: boolean('active').notNull().default(true),
  },
  (t) => [primaryKey({ columns: [t.kind, t.id] })],
);

/** Relationship lists of /health/relationships: families, domestics, parents. */
export const relationships = pgTable(
  'relationships',
  {
    group: text('group').notNull(),
    id: integer('id').notNull(),
    nameEn: text('name_en').notNull(),
    nameAr: text('name_ar').notNull(),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.group, t.id] })],
);

/** Insurers. Ids 7, 3 and 1000 carry the spec's special rules; the seed is fictional demo data. */
export const insurers = pgTable('insurers', {
  id: integer('id').primaryKey(),
  nameEn: text('name_en').notNull(),
  nameAr: text('name_ar').notNull(),
  logo: text('logo').notNull(),
  /** Whether the insurer covers a national of a destination country travelling there. */
  acceptsDestinationNationals: boolean('accepts_destination_nationals').notNull().default(false),
  active: boolean('active').notNull().default(true),
});

/** Nationalities an insurer does not cover (the countries filter with insurance_provider_id). */
export const insurerExcludedCountries = pgTable(
  'insurer_excluded_countries',
  {
    insurerId: integer('insurer_id')
      .notNull()
      .references(() => insurers.id),
    countryId: integer('country_id')
      .notNull()
      .references(() => countries.id),
  },
  (t) => [primaryKey({ columns: [t.insurerId, t.countryId] })],
);

/** Company information, one row per language (the numbers and links are the same in both). */
export const companyInfo = pgTable('company_info', {
  lang: text('lang').primaryKey(),
  name: text('name').notNull(),
  whatsappNumber: text('whatsapp_number').notNull(),
  tollFreeNumber: text('toll_free_number').notNull(),
  email: text('email').notNull(),
  address: text('address').notNull(),
  disclaimer: text('disclaimer').notNull(),
  social: jsonb('social').$type<{ network: string; url: string }[]>().notNull(),
});

/** Active agents (RULINGS 14); agent_id in the query must name one of these. */
export const agents = pgTable('agents', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  active: boolean('active').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
