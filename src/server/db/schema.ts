import { boolean, date, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

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

/**
 * Customers of add-customer-lead. One person per email and per phone: the email is stored
 * trimmed and lower-cased so "A@x.com" and "a@x.com" are the same customer, and the
 * complete phone number (code + digits) is unique too.
 */
export const customers = pgTable('customers', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  phoneCountryCode: text('phone_country_code').notNull(),
  phoneNumber: text('phone_number').notNull(),
  completePhoneNumber: text('complete_phone_number').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A trip enquiry (spec §3 Customer / lead). The contact fields are copied from the customer
 * as they were when the lead was saved; every derived figure is computed by the server.
 */
export const leads = pgTable(
  'leads',
  {
    id: serial('id').primaryKey(),
    /** The public, unguessable id the SPA carries in the query string. */
    uuid: text('uuid').notNull().unique(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    deviceUuid: text('device_uuid').notNull(),
    sessionId: text('session_id').notNull(),
    agentId: integer('agent_id').references(() => agents.id),
    lang: text('lang').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phoneCountryCode: text('phone_country_code').notNull(),
    phoneNumber: text('phone_number').notNull(),
    completePhoneNumber: text('complete_phone_number').notNull(),
    /** true: travelling from Lebanon (source 422); false: travelling to Lebanon (destination [422]). */
    inboundOutbound: boolean('inbound_outbound').notNull(),
    tripType: integer('trip_type').notNull(),
    productType: integer('product_type').notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    noOfDays: integer('no_of_days').notNull(),
    destinationIds: integer('destination_ids').array().notNull(),
    sourceId: integer('source_id')
      .notNull()
      .references(() => countries.id),
    noOfTraveller: integer('no_of_traveller').notNull(),
    isFamily: boolean('is_family').notNull(),
    utmSource: text('utm_source'),
    utmMedium: text('utm_medium'),
    utmCampaign: text('utm_campaign'),
    utmContent: text('utm_content'),
    status: integer('status').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('leads_device_uuid_idx').on(t.deviceUuid), index('leads_customer_id_idx').on(t.customerId)],
);

/** Travellers of a lead in form order; removed ones are kept with deleted_at (spec §4 deleted_members). */
export const leadTravellers = pgTable(
  'lead_travellers',
  {
    id: serial('id').primaryKey(),
    leadId: integer('lead_id')
      .notNull()
      .references(() => leads.id),
    position: integer('position').notNull(),
    firstName: text('first_name'),
    middleName: text('middle_name'),
    lastName: text('last_name'),
    dob: date('dob', { mode: 'string' }).notNull(),
    /** NULL until the customer says how this traveller relates to the principal. */
    relationshipTypeId: integer('relationship_type_id'),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('lead_travellers_lead_id_idx').on(t.leadId)],
);

/** The recent-search entry of a lead (spec §3 lead tracker): one per lead, its stage rises 1 → 3. */
export const leadTrackers = pgTable(
  'lead_trackers',
  {
    id: serial('id').primaryKey(),
    leadId: integer('lead_id')
      .notNull()
      .references(() => leads.id),
    uuidLead: text('uuid_lead').notNull(),
    deviceUuid: text('device_uuid').notNull(),
    stage: integer('stage').notNull().default(1),
    insuranceProviderId: integer('insurance_provider_id').references(() => insurers.id),
    planId: integer('plan_id'),
    planRefId: text('plan_ref_id'),
    status: integer('status').notNull().default(0),
    lastVisit: date('last_visit', { mode: 'string' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('lead_trackers_lead_id_idx').on(t.leadId), index('lead_trackers_device_uuid_idx').on(t.deviceUuid)],
);
