import { sql } from 'drizzle-orm';
import type { OrderContract } from '../orders/order-contract.types';
import { boolean, check, date, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

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

/**
 * Rate-limit counters (issue 7, RULINGS 23): hits per bucket (which limit), key (an address, a
 * device, a lead, a phone number) and fixed window. Kept in the database so every instance
 * behind a load balancer counts the same hits; one atomic upsert per hit. Windows start on the
 * app's clock; rows of windows long over are purged now and then.
 */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    bucket: text('bucket').notNull(),
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    hits: integer('hits').notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.key, t.windowStart] }), index('rate_limit_counters_window_start_idx').on(t.windowStart)],
);

/**
 * One row whose version rises with every change to the reference data and the catalogue
 * (settings, countries, master lists, relationships, company info, insurers and their plans),
 * bumped by statement triggers (migration 0012), so a change made by any writer (the broker CLI,
 * psql, another instance) is seen by every instance's in-memory copy (reference/reference-data.ts).
 */
export const referenceVersion = pgTable('reference_version', {
  id: integer('id').primaryKey(),
  version: integer('version').notNull().default(1),
});

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
  /**
   * How the insurer is quoted (RULINGS 10): 'catalogue' prices from the rate tables here;
   * 'http' asks the insurer's quoting API (INSURER_API_URL, by default the sandbox this server hosts).
   */
  quoteAdapter: text('quote_adapter').notNull().default('catalogue'),
  active: boolean('active').notNull().default(true),
  /** The insurer's 24/7 emergency assistance line, international format (issue 37): on the certificate and the policy page. */
  assistancePhone: text('assistance_phone').notNull().default(''),
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
    /**
     * HTTP insurers that failed when the live quotes were priced, and when they were last asked
     * (app clock, ms). compare-quotes names them as unavailable and asks them again after a short
     * interval, merging their quotes into the same snapshot. Null when every insurer answered.
     */
    quotesUnavailable: jsonb('quotes_unavailable').$type<{ insurerIds: number[]; askedAt: number }>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('leads_device_uuid_idx').on(t.deviceUuid),
    index('leads_customer_id_idx').on(t.customerId),
    // The broker's order search (orders/order-admin.ts): an e-mail whole, and a phone number by
    // the end of the stored one (its reverse's prefix), without reading every lead.
    index('leads_email_idx').on(t.email),
    index('leads_phone_reversed_idx').using('btree', sql`reverse(${t.completePhoneNumber}) text_pattern_ops`),
  ],
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
    /*
     * Review fields (spec §3 Traveller), saved by save-traveller-info. NULL until then, and NULL
     * wherever the chosen plan does not ask for the field (reviewFieldRules): the insurer's
     * policy names only what it asked for. Ids of master lists are not foreign keys because
     * master_items has a composite key (kind, id); the server checks them against their list.
     */
    /** The title (spec "type"), an id of the master list 'prefex'. */
    titleId: integer('title_id'),
    /** An id of the master list 'genders'. */
    genderId: integer('gender_id'),
    /** As on the passport, normalised (Western digits, capitals, no spaces); unique among the lead's live travellers. */
    passport: text('passport'),
    /** Country of residence. */
    countryId: integer('country_id').references(() => countries.id),
    /** A nationality the insurer covers for this trip (RULINGS 4). */
    nationalityId: integer('nationality_id').references(() => countries.id),
    /** An id of the master list 'marital_status'; optional for every plan. */
    maritalStatusId: integer('marital_status_id'),
    /**
     * When the traveller was last saved at review for the plan chosen now (spec is_field).
     * Cleared when the trip is saved again from travel details, since a re-quote asks for a new
     * plan; the lead reaches checkout (stage 3) once every live traveller has one.
     */
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
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

/* ---------------------------------------------------------------------------------------------
 * Catalogue (RULINGS 10): plans, rates, limits, add-ons, highlights and benefits, as data the
 * broker edits. Money is integer US cents. Seeded at first start with fictional demo insurers.
 * ------------------------------------------------------------------------------------------- */

/** A plan of an insurer, sold for a trip type in one or more zones (the zones its rates name). */
export const plans = pgTable(
  'plans',
  {
    id: integer('id').primaryKey(),
    insurerId: integer('insurer_id')
      .notNull()
      .references(() => insurers.id),
    /** Coverage id of spec §3 Quote (coverage_id); the plan's cover level at the insurer. */
    coverageId: integer('coverage_id').notNull(),
    nameEn: text('name_en').notNull(),
    nameAr: text('name_ar').notNull(),
    coverageNameEn: text('coverage_name_en').notNull(),
    coverageNameAr: text('coverage_name_ar').notNull(),
    /** 1 single trip, 2 annual multi-trip. */
    tripType: integer('trip_type').notNull(),
    minAge: integer('min_age').notNull(),
    maxAge: integer('max_age').notNull(),
    /** Longest single trip covered, days (annual plans: the longest trip within the year). */
    maxTripDays: integer('max_trip_days').notNull(),
    /** Destinations the plan never covers (ISO numeric ids). */
    excludedDestinationIds: integer('excluded_destination_ids').array().notNull().default([]),
    /** Family price = this many times the principal's premium, in hundredths (250 = 2.5×); null: no family price. */
    familyFactorPct: integer('family_factor_pct'),
    medicalLimitUsd: integer('medical_limit_usd').notNull(),
    schengenVisaCompliant: boolean('schengen_visa_compliant').notNull().default(false),
    isInstantPolicy: boolean('is_instant_policy').notNull().default(true),
    isApiPlan: boolean('is_api_plan').notNull().default(true),
    sort: integer('sort').notNull().default(0),
    active: boolean('active').notNull().default(true),
    /**
     * The plan's cancellation rule (RULINGS 29, issue 36 item 5): a policy cancelled before its
     * start date gets its whole premium back less this fee, cents (the seed: $10 a policy).
     */
    cancellationFeeCents: integer('cancellation_fee_cents').notNull().default(1000),
  },
  (t) => [index('plans_insurer_id_idx').on(t.insurerId)],
);

/** Premium per traveller by age band × trip-length band × zone (bounds inclusive). */
export const planRates = pgTable(
  'plan_rates',
  {
    id: serial('id').primaryKey(),
    planId: integer('plan_id')
      .notNull()
      .references(() => plans.id),
    zone: text('zone').notNull(),
    minAge: integer('min_age').notNull(),
    maxAge: integer('max_age').notNull(),
    minDays: integer('min_days').notNull(),
    maxDays: integer('max_days').notNull(),
    premiumCents: integer('premium_cents').notNull(),
  },
  (t) => [index('plan_rates_plan_id_idx').on(t.planId)],
);

/** Optional covers of a plan; the price is per covered traveller, or a share of the premium. */
export const planAddons = pgTable(
  'plan_addons',
  {
    id: integer('id').primaryKey(),
    planId: integer('plan_id')
      .notNull()
      .references(() => plans.id),
    code: text('code').notNull(),
    labelEn: text('label_en').notNull(),
    labelAr: text('label_ar').notNull(),
    /** Price per covered traveller, cents; or null when priced as a share of the premium. */
    perTravellerCents: integer('per_traveller_cents'),
    /** Share of the plan premium in hundredths of a percent (1500 = 15 %); or null. */
    premiumShareBp: integer('premium_share_bp'),
    /** Oldest age the add-on covers (winter sports: 70); null for any age. */
    maxAge: integer('max_age'),
    /** The most the add-on pays per traveller, USD (issue 37: certificate and policy page); null where it has no sum. */
    limitUsd: integer('limit_usd'),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('plan_addons_plan_id_idx').on(t.planId)],
);

/** Highlights (sections 1–3) and benefits of a plan, in English and Arabic. */
export const planFeatures = pgTable(
  'plan_features',
  {
    id: serial('id').primaryKey(),
    planId: integer('plan_id')
      .notNull()
      .references(() => plans.id),
    /** 'highlight' or 'benefit'. */
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    /** 1–3 for highlights; 0 for benefits. */
    section: integer('section').notNull().default(0),
    labelEn: text('label_en').notNull(),
    labelAr: text('label_ar').notNull(),
    valueEn: text('value_en').notNull(),
    valueAr: text('value_ar').notNull(),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('plan_features_plan_id_idx').on(t.planId)],
);

/* ---------------------------------------------------------------------------------------------
 * Quotes, invoices, call-backs and bot-check tokens.
 * ------------------------------------------------------------------------------------------- */

/**
 * The priced snapshot of one plan for a lead (RULINGS 11). Each compare-quotes run supersedes
 * the lead's earlier quotes; an invoice is only ever built from a live one.
 */
export const leadQuotes = pgTable(
  'lead_quotes',
  {
    id: serial('id').primaryKey(),
    leadId: integer('lead_id')
      .notNull()
      .references(() => leads.id),
    planId: integer('plan_id')
      .notNull()
      .references(() => plans.id),
    insurerId: integer('insurer_id')
      .notNull()
      .references(() => insurers.id),
    zone: text('zone').notNull(),
    premiumCents: integer('premium_cents').notNull(),
    /** [{ position, age, cents }] in traveller order. */
    perPerson: jsonb('per_person').$type<{ position: number; age: number; cents: number }[]>().notNull(),
    /** [{ addonId, code, cents, coveredTravellers, disabled }] priced for this party. */
    addons: jsonb('addons')
      .$type<{ addonId: number; code: string; cents: number; coveredTravellers: number; disabled: boolean }[]>()
      .notNull(),
    supersededAt: timestamp('superseded_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('lead_quotes_lead_id_idx').on(t.leadId)],
);

/** The order being built for a lead (spec §3 Invoice): one per lead, replaced when another plan is chosen. */
export const invoices = pgTable('invoices', {
  id: serial('id').primaryKey(),
  leadId: integer('lead_id')
    .notNull()
    .unique()
    .references(() => leads.id),
  quoteId: integer('quote_id')
    .notNull()
    .references(() => leadQuotes.id),
  quoteRefNo: text('quote_ref_no').notNull().unique(),
  insurerId: integer('insurer_id')
    .notNull()
    .references(() => insurers.id),
  planId: integer('plan_id')
    .notNull()
    .references(() => plans.id),
  planPriceCents: integer('plan_price_cents').notNull(),
  /** [{ addonId, code, nameEn, nameAr, cents }] */
  addons: jsonb('addons').$type<{ addonId: number; code: string; nameEn: string; nameAr: string; cents: number }[]>().notNull(),
  totalWithoutVatCents: integer('total_without_vat_cents').notNull(),
  vatPercent: integer('vat_percent').notNull(),
  vatCents: integer('vat_cents').notNull(),
  stampFeeCents: integer('stamp_fee_cents').notNull(),
  totalWithVatCents: integer('total_with_vat_cents').notNull(),
  /** The premium the browser said it showed, when it differed from the server's (kept for the broker). */
  clientPremiumMismatch: jsonb('client_premium_mismatch'),
  agentId: integer('agent_id').references(() => agents.id),
  /** 'open' until paid or issued; later issues add 'paid', 'issued'. */
  status: text('status').notNull().default('open'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Call-back tasks for the broker's team (RULINGS 12–13), listed with `npm run broker -- call-backs`. */
export const callBacks = pgTable(
  'call_backs',
  {
    id: serial('id').primaryKey(),
    leadId: integer('lead_id').references(() => leads.id),
    reason: text('reason').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    completePhoneNumber: text('complete_phone_number').notNull(),
    lang: text('lang').notNull(),
    agentId: integer('agent_id').references(() => agents.id),
    /** How far the broker's team got (issue 36 item 3): new, contacted, quoted, closed. */
    status: text('status').notNull().default('new'),
    /** Who on the team works it (free text: a name or an e-mail); null while nobody does. */
    assignee: text('assignee'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('call_backs_created_at_idx').on(t.createdAt), check('call_backs_status_check', sql`${t.status} in ('new', 'contacted', 'quoted', 'closed')`)],
);

/** The broker's team's notes on a call-back (issue 36 item 3), oldest first: who wrote what, when. */
export const callBackNotes = pgTable(
  'call_back_notes',
  {
    id: serial('id').primaryKey(),
    callBackId: integer('call_back_id')
      .notNull()
      .references(() => callBacks.id),
    at: timestamp('at', { withTimezone: true }).notNull(),
    author: text('author').notNull(),
    text: text('text').notNull(),
  },
  (t) => [index('call_back_notes_call_back_id_idx').on(t.callBackId)],
);

/** Bot-check solutions already spent (RULINGS 16: a token is good once), by challenge signature. */
export const botTokensUsed = pgTable(
  'bot_tokens_used',
  {
    signature: text('signature').primaryKey(),
    usedAt: timestamp('used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('bot_tokens_used_used_at_idx').on(t.usedAt)],
);

/** Mail written through the mail transport (RULINGS 22): what was sent, to whom, and the .eml file. */
export const mailLog = pgTable('mail_log', {
  id: serial('id').primaryKey(),
  leadId: integer('lead_id').references(() => leads.id),
  kind: text('kind').notNull(),
  toAddress: text('to_address').notNull(),
  subject: text('subject').notNull(),
  /** Where the default transport wrote it (data/outbox/…eml); null for SMTP. */
  file: text('file'),
  /** The message's Message-ID (the outbox row's): a second attempt of an accepted message is not sent again. */
  messageId: text('message_id').unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/* ---------------------------------------------------------------------------------------------
 * Checkout (issue 10): coupons the broker manages and the orders placed at temp-checkout.
 * ------------------------------------------------------------------------------------------- */

/**
 * Coupons (spec §3 Coupon response), managed with `npm run broker -- coupons`. The code is stored
 * upper case without spaces (couponCodeText), so "safar 10" typed on a phone finds SAFAR10. A
 * coupon is good from valid_from to valid_to inclusive (the app's today); used_count counts paid
 * orders only (the payment, or a 100 % order, spends a use), so abandoned checkouts never use
 * one up; usage_limit null is unlimited. provider_id set: only for that insurer's plans.
 */
export const coupons = pgTable(
  'coupons',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull().unique(),
    /** 1 percentage (of the plan premium only, RULINGS 18), 2 fixed amount. */
    discountType: integer('discount_type').notNull(),
    /** Percent 1–100 for type 1; US cents for type 2. */
    discountValue: integer('discount_value').notNull(),
    validFrom: date('valid_from', { mode: 'string' }).notNull(),
    validTo: date('valid_to', { mode: 'string' }).notNull(),
    usageLimit: integer('usage_limit'),
    usedCount: integer('used_count').notNull().default(0),
    providerId: integer('provider_id').references(() => insurers.id),
    /** Disabled coupons are kept (orders name them) and answer like unknown ones. */
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The broker may edit rows by hand: the database itself refuses a coupon the totals cannot read.
  (t) => [
    check('coupons_discount_check', sql`(${t.discountType} = 1 and ${t.discountValue} between 1 and 100) or (${t.discountType} = 2 and ${t.discountValue} > 0)`),
    check('coupons_dates_check', sql`${t.validFrom} <= ${t.validTo}`),
    check('coupons_usage_check', sql`${t.usedCount} >= 0 and (${t.usageLimit} is null or ${t.usageLimit} >= 0)`),
  ],
);

/**
 * One checkout attempt (spec §7 temp-checkout): the figures the server computed, frozen, with a
 * merchant reference unique to the attempt (RULINGS 19), so a payment result names exactly one
 * order and a retried payment never collides with an earlier one. A lead may have several
 * pending attempts; at most one gets paid (the invoice turns 'paid' in the same transaction).
 */
export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    leadId: integer('lead_id')
      .notNull()
      .references(() => leads.id),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id),
    /** Sent to the gateway: APS allows [A-Za-z0-9_.-], at most 40 characters. */
    merchantReference: text('merchant_reference').notNull().unique(),
    couponId: integer('coupon_id').references(() => coupons.id),
    planCents: integer('plan_cents').notNull(),
    addonsCents: integer('addons_cents').notNull(),
    discountCents: integer('discount_cents').notNull(),
    vatCents: integer('vat_cents').notNull(),
    stampCents: integer('stamp_cents').notNull(),
    /** What the customer pays; the gateway is asked for exactly this (in minor units). */
    totalCents: integer('total_cents').notNull(),
    vatPercent: integer('vat_percent').notNull(),
    currency: text('currency').notNull().default('USD'),
    /** The page's language, for the payments page and the policy mail. */
    lang: text('lang').notNull(),
    agentId: integer('agent_id').references(() => agents.id),
    /**
     * 'pending' until the gateway (or a 100 % coupon) pays it, then 'paid' (settled: it holds the
     * policy); 'failed' when the gateway declined it or the customer cancelled (a later success
     * for the same reference may still pay it); 'void' when it can no longer be paid (the lead
     * changed, its coupon was withdrawn, or it was not paid within ORDER_HOLD_MS: void_reason);
     * 'refund' when the gateway took money that buys no policy (a second payment for a lead
     * already paid, a payment for a void order, a coupon that ran out: refund_reason), which the
     * broker refunds; 'refunded' once the gateway answered that refund with success (issue 36:
     * orders/refunds.ts). A retry is a new order with a new merchant reference.
     */
    status: text('status').notNull().default('pending'),
    /** The total the page showed (RULINGS 11: compared, never charged); equal to total_cents, kept for the broker. */
    clientTotalCents: integer('client_total_cents').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** The gateway's transaction id (fort_id) and answer that settled the order, for the broker. */
    fortId: text('fort_id'),
    responseCode: text('response_code'),
    responseMessage: text('response_message'),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    /**
     * What is being bought, frozen when the order was placed (order-contract.ts): plan, cover,
     * add-ons, trip, each traveller as reviewed, and the price lines. The policy and its
     * certificate are issued from this alone, never from the lead as it is later. Null only for
     * orders placed before it existed, until the start-up backfill fills them.
     */
    contract: jsonb('contract').$type<OrderContract>(),
    /**
     * The PURCHASE request fields sent to the gateway for this order, signature left out
     * (purchase-fields.ts): the payments page and payfort-data sign exactly these, and every
     * field a payment notice echoes must equal them. Null for an order paid without the gateway.
     */
    purchaseFields: jsonb('purchase_fields').$type<Record<string, string>>(),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    /** Why the order was voided: trip_changed, plan_changed, traveller_changed, coupon_withdrawn, expired, legacy. */
    voidReason: text('void_reason'),
    /** Why the money of a 'refund' order buys nothing: paid_twice, order_void, coupon_used_up. */
    refundReason: text('refund_reason'),
  },
  (t) => [
    index('orders_lead_id_idx').on(t.leadId),
    // The broker's order list, newest first, a page at a time.
    index('orders_created_at_idx').on(t.createdAt, t.id),
    index('orders_coupon_id_idx').on(t.couponId),
    check('orders_status_check', sql`${t.status} in ('pending', 'paid', 'failed', 'void', 'refund', 'refunded')`),
  ],
);

/* ---------------------------------------------------------------------------------------------
 * Payment and policy (issue 11).
 * ------------------------------------------------------------------------------------------- */

/**
 * Every payment response that reached the server, raw (RULINGS 20: the return through the
 * browser and the gateway's direct transaction feedback), with what was done with it: kept for
 * the broker and for disputes, forged and mismatched ones included.
 */
export const paymentNotices = pgTable(
  'payment_notices',
  {
    id: serial('id').primaryKey(),
    /** 'return' (the browser, from return_url) or 'feedback' (the gateway, server to server). */
    source: text('source').notNull(),
    /** As posted, which a forged notice may have made up; at most 40 characters are kept. */
    merchantReference: text('merchant_reference'),
    fortId: text('fort_id'),
    orderId: integer('order_id').references(() => orders.id),
    /** Every field as posted (strings), the signature included. */
    payload: jsonb('payload').$type<Record<string, string>>().notNull(),
    /**
     * applied (this notice settled the order), repeated (its result was applied already),
     * bad_signature, mismatch (amount, currency or merchant not the order's), unknown_order,
     * malformed.
     */
    verdict: text('verdict').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('payment_notices_reference_idx').on(t.merchantReference)],
);

/**
 * The results applied to orders: one row per merchant reference and fort_id. Inserting it is
 * the "apply once" of RULINGS 20: a notice whose row exists already changes nothing, whichever
 * of return and feedback comes first and however many arrive at once.
 */
export const paymentResults = pgTable(
  'payment_results',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    merchantReference: text('merchant_reference').notNull(),
    fortId: text('fort_id').notNull(),
    /** APS status: '14' purchase success; anything else is a failure. */
    status: text('status').notNull(),
    responseCode: text('response_code').notNull(),
    responseMessage: text('response_message').notNull(),
    appliedAt: timestamp('applied_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('payment_results_reference_fort_id_idx').on(t.merchantReference, t.fortId)],
);

/**
 * The policy of a paid order (RULINGS 21): exactly one per order (the unique order_id), a
 * unique policy number, and an unguessable token that names its PDF certificate's download
 * link. The certificate is drawn from its order's contract (what was paid for) when asked for.
 */
export const policies = pgTable('policies', {
  id: serial('id').primaryKey(),
  orderId: integer('order_id')
    .notNull()
    .unique()
    .references(() => orders.id),
  leadId: integer('lead_id')
    .notNull()
    .references(() => leads.id),
  policyNumber: text('policy_number').notNull().unique(),
  /** 32 random bytes, base64url: the certificate's address, /policies/<token>.pdf. */
  downloadToken: text('download_token').notNull().unique(),
  issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
  /** When the certificate was e-mailed; null until the mail transport took it. */
  mailedAt: timestamp('mailed_at', { withTimezone: true }),
  /**
   * The code an embassy checks (issue 37 item 4): printed on the certificate and in its QR code,
   * it opens /verify/<code>. 16 hex digits of a random UUID (60 random bits), drawn by the database.
   */
  verifyCode: text('verify_code')
    .notNull()
    .unique()
    .default(sql`upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 16))`),
  /** Cancelled by the broker (issue 36 item 5): when, why (visa_refused, trip_cancelled, other), the broker's note, and who. */
  cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  cancelReason: text('cancel_reason'),
  cancelNote: text('cancel_note'),
  cancelledBy: text('cancelled_by'),
  /**
   * The customer's own policy page, /policy/<token> (issue 37 item 2): 64 hex digits of two random
   * UUIDs (244 random bits), drawn by the database for every policy, and never the certificate's token.
   */
  pageToken: text('page_token')
    .notNull()
    .unique()
    .default(sql`replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '')`),
});

/**
 * A customer's request to cancel a policy that has not started (issue 37 item 2), from the policy
 * page: one per policy. The broker works it in the console (cancel with refund, or decline);
 * `npm run broker -- cancellation-requests` lists them. status: open, done (the policy was
 * cancelled), declined.
 */
export const cancellationRequests = pgTable('cancellation_requests', {
  id: serial('id').primaryKey(),
  policyId: integer('policy_id')
    .notNull()
    .unique()
    .references(() => policies.id),
  reason: text('reason').notNull(),
  note: text('note').notNull().default(''),
  status: text('status').notNull().default('open'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  handledAt: timestamp('handled_at', { withTimezone: true }),
  handledBy: text('handled_by'),
});

/**
 * Money the gateway took that buys nothing (issue 33 item 3): one row per capture, that is per
 * merchant reference and fort_id, which is what an APS REFUND names. Written in the transaction
 * that applies the success notice, so no capture is ever only in a log. The reasons:
 * - paid_twice, order_void, coupon_used_up: the order's one capture issued no policy (the order
 *   is then 'refund' with that refund_reason);
 * - charged_again: a further capture of an order already paid or already to be refunded (a
 *   second tab, a resubmitted form): the order keeps its status and its policy;
 * - policy_cancelled: the order's own capture, when the broker cancelled its policy (issue 36
 *   item 5): refund_cents is the premium less the plan's cancellation fee.
 * `npm run broker -- refunds` lists them, and `npm run broker -- refunds pay` gives one back (issue
 * 36 item 4): the row is then 'requested' under a maintenance reference of its own, an APS REFUND
 * is queued in the outbox (queue aps-refund) in the same transaction, and the gateway's answer
 * makes it 'refunded' (status 06) or 'refused' (07, or a request the gateway would not take),
 * which the broker may request again under a new maintenance reference.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id),
    merchantReference: text('merchant_reference').notNull(),
    fortId: text('fort_id').notNull(),
    /** What the capture took: the order's total, which the notice's echoed amount was checked against. */
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    reason: text('reason').notNull(),
    /** The notice that recorded it; null for captures recorded by migration 0014 from earlier notices. */
    noticeId: integer('notice_id').references(() => paymentNotices.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** due (nothing asked yet), requested (an APS REFUND queued or under way), refunded, refused. */
    status: text('status').notNull().default('due'),
    /** What the REFUND gives back, cents: amount_cents for money that bought nothing. */
    refundCents: integer('refund_cents'),
    /** The REFUND's own reference (APS maintenance_reference): one per request, the same at every retry of it. */
    maintenanceReference: text('maintenance_reference').unique(),
    requestedAt: timestamp('requested_at', { withTimezone: true }),
    /** Who asked: `cli:<user>` for the command line. */
    requestedBy: text('requested_by'),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    /** The gateway's answer to the REFUND: response_code and response_message, or why it was not taken. */
    responseCode: text('response_code'),
    responseMessage: text('response_message'),
  },
  (t) => [
    uniqueIndex('refunds_reference_fort_id_idx').on(t.merchantReference, t.fortId),
    index('refunds_order_id_idx').on(t.orderId),
    check('refunds_reason_check', sql`${t.reason} in ('paid_twice', 'order_void', 'coupon_used_up', 'charged_again', 'policy_cancelled')`),
    check('refunds_status_check', sql`${t.status} in ('due', 'requested', 'refunded', 'refused')`),
  ],
);

/**
 * The embedded APS sandbox's payment sessions (issue 17 item 9): a PURCHASE request it accepted
 * (or refused, with its signed refusal), under a random one-time id, so that every page the
 * browser keeps in its history is a GET of /sandbox/aps/pay/<id> (Post/Redirect/Get) and Back
 * never re-posts a form. Once answered, the session holds its signed response and pays no more.
 * In the database, not in memory, because any instance may serve the next request.
 */
export const apsSandboxSessions = pgTable('aps_sandbox_sessions', {
  /** 24 random bytes, base64url. */
  id: text('id').primaryKey(),
  /** The request fields as posted (signature included); empty for a request refused at once. */
  request: jsonb('request').$type<Record<string, string>>().notNull(),
  /** Where the answer goes (the request's return_url). */
  returnUrl: text('return_url').notNull(),
  lang: text('lang').notNull(),
  /** The last card form the sandbox refused: what was typed (never the CVV) and why. */
  cardForm: jsonb('card_form').$type<{ values: Record<string, string>; errors: Record<string, string> }>(),
  /** The signed answer, once there is one: the session is then closed. */
  response: jsonb('response').$type<Record<string, string>>(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  answeredAt: timestamp('answered_at', { withTimezone: true }),
});

/**
 * Every merchant reference the embedded APS sandbox accepted a PURCHASE for (issue 33 item 3).
 * APS takes one PURCHASE per merchant reference and refuses any other with 00007 "Duplicate
 * order number", so the sandbox claims the reference here, by its primary key, in the
 * transaction that opens the session: of two posts of one Pay form (two tabs, Back and Pay
 * again), however close, one opens a card page and the other is refused. Kept when its session is
 * pruned (a day later), because APS does not forget a reference either.
 */
export const apsSandboxReferences = pgTable('aps_sandbox_references', {
  merchantReference: text('merchant_reference').primaryKey(),
  /** The session the reference opened (pruned with its session, so no foreign key). */
  sessionId: text('session_id').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/**
 * The audit log (issue 36 item 3): one row per change the broker's team made, through the CLI,
 * the admin endpoint or (later) the console, written in the change's own transaction, so a change
 * is never without its row nor a row without its change. `before` and `after` are what the change
 * touched as the broker's lists show it (null where there was nothing: a coupon added).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    /** Who: `cli:<user>` from the command line. */
    actor: text('actor').notNull(),
    /** What: coupons.add, coupons.disable, settings.set, mail.resend, refunds.pay, policies.cancel. */
    action: text('action').notNull(),
    /** Which: a coupon code, a setting, a policy number, a merchant reference. */
    target: text('target').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [index('audit_log_at_idx').on(t.at)],
);

/**
 * The captures the embedded APS sandbox made (issue 36 item 4): one per successful PURCHASE,
 * written in the transaction that answers its session, and kept when the session is pruned, so a
 * REFUND days later finds what was taken. refunded_cents is what its REFUNDs gave back so far.
 */
export const apsSandboxCaptures = pgTable('aps_sandbox_captures', {
  fortId: text('fort_id').primaryKey(),
  merchantReference: text('merchant_reference').notNull(),
  amountCents: integer('amount_cents').notNull(),
  currency: text('currency').notNull(),
  refundedCents: integer('refunded_cents').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/**
 * The REFUND requests the embedded APS sandbox answered, by maintenance reference: a request sent
 * again under the same one (a retry after a crash, or after an answer lost on the way) gets the
 * same answer and gives nothing back twice.
 */
export const apsSandboxRefunds = pgTable('aps_sandbox_refunds', {
  maintenanceReference: text('maintenance_reference').primaryKey(),
  fortId: text('fort_id').notNull(),
  /** The signed answer, as sent. */
  response: jsonb('response').$type<Record<string, string>>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/**
 * The outbox (issue 18 item 1): one row per piece of work that must reach the world outside the
 * database, written in the transaction that causes it, delivered by the outbox worker of its
 * queue (mail/outbox.ts) with retries and backoff, and marked sent only once the far side
 * accepted it. Three queues, one mechanism: `mail` (a policy's certificate mail, built at each
 * attempt; a share-page mail, rendered when the agent sent it and kept in payload),
 * `aps-feedback` (the embedded APS sandbox's direct transaction feedback, its signed fields in
 * payload) and `aps-refund` (an APS REFUND of a refunds row, its id in payload). message_id is the stable id of every attempt (a mail's RFC 5322 Message-ID), so an
 * attempt after a crash between the far side's acceptance and the mark is recognised as the
 * same message. last_error holds an error class or an HTTP status only, never personal data.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: serial('id').primaryKey(),
    messageId: text('message_id').notNull().unique(),
    queue: text('queue', { enum: ['mail', 'aps-feedback', 'aps-refund'] }).notNull().default('mail'),
    /** policy (the certificate mail), share-<page> (a share-page mail), aps-feedback */
    kind: text('kind').notNull(),
    policyId: integer('policy_id').references(() => policies.id),
    /** A share-page mail as rendered ({ leadId, to, subject, text, html }); the feedback's signed fields ({ fields }). */
    payload: jsonb('payload').$type<Record<string, unknown>>(),
    status: text('status', { enum: ['pending', 'sent', 'failed'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** The instance whose worker holds the row's lease (mail/outbox.ts); null when no attempt is under way. */
    claimedBy: text('claimed_by'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('outbox_due_idx').on(t.queue, t.status, t.nextAttemptAt),
    // The rows under way (claimed_by is cleared when a row is sent, failed or released): what a
    // takeover looks for at every claim, without reading the sent rows.
    index('outbox_claimed_by_idx').on(t.claimedBy).where(sql`${t.claimedBy} is not null`),
  ],
);

/**
 * The outbox workers' heartbeats (issue 34 item 4): each instance's workers write the database's
 * now() here every HEARTBEAT_MS, and another instance's worker gives the claims of an instance
 * whose heartbeat is older than TAKEOVER_AFTER_MS back to the queue (mail/outbox.ts). The
 * database's clock, never an instance's own, so clocks that disagree between hosts play no part.
 */
export const outboxInstances = pgTable('outbox_instances', {
  /** The claimed_by of that instance's outbox rows (main.ts: host:port, or "embedded"). */
  instanceId: text('instance_id').primaryKey(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The broker's console accounts (issue 36 item 2), in the shape better-auth's Drizzle adapter
 * reads (admin/console-auth.ts): users, their database sessions, their password (an account of
 * provider "credential", hashed with scrypt), one-time values (the setup links, by digest), and
 * their TOTP second factor. No account exists until `npm run broker -- users add` makes one.
 */
export const consoleUsers = pgTable('console_users', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  /** staff works call-backs, orders and mail; admin also coupons, agents, refunds and users. */
  role: text('role', { enum: ['staff', 'admin'] }).notNull().default('staff'),
  twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
  /** Set when an admin disables the account: its sessions are deleted and no new one starts. */
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const consoleSessions = pgTable(
  'console_sessions',
  {
    id: text('id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    token: text('token').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: text('user_id')
      .notNull()
      .references(() => consoleUsers.id, { onDelete: 'cascade' }),
  },
  (t) => [index('console_sessions_user_id_idx').on(t.userId)],
);

export const consoleAccounts = pgTable(
  'console_accounts',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => consoleUsers.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('console_accounts_user_id_idx').on(t.userId)],
);

export const consoleVerifications = pgTable(
  'console_verifications',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('console_verifications_identifier_idx').on(t.identifier)],
);

export const consoleTwoFactors = pgTable(
  'console_two_factors',
  {
    id: text('id').primaryKey(),
    /** The TOTP secret, encrypted by better-auth with the console's secret. */
    secret: text('secret').notNull(),
    backupCodes: text('backup_codes').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => consoleUsers.id, { onDelete: 'cascade' }),
    verified: boolean('verified').notNull().default(true),
    failedVerificationCount: integer('failed_verification_count').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (t) => [index('console_two_factors_user_id_idx').on(t.userId), index('console_two_factors_secret_idx').on(t.secret)],
);

/**
 * The console's one secret (issue 36 item 2): better-auth signs its cookies and encrypts the TOTP
 * secrets with it. Made at random by the first start and kept here, so every instance on one
 * database shares it and nothing has to be configured.
 */
export const consoleSecret = pgTable(
  'console_secret',
  {
    id: integer('id').primaryKey().default(1),
    secret: text('secret').notNull(),
  },
  () => [check('console_secret_one_row', sql`"id" = 1`)],
);
