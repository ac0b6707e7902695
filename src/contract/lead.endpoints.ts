import * as v from 'valibot';
import { agentIdSchema, defineEndpoint, langSchema, policyPageTokenSchema, uuidSchema } from './endpoint';
import { checkoutTotalsSchema } from './checkout.endpoints';
import { invoiceSchema } from './invoice.schema';
import { travelDetailsSchema, travellerInputSchema } from './travel-details.rules';

/**
 * Leads of the travel details step (spec §3 Customer / Traveller / Recent search, §7 calls).
 * The server validates the details with travelDetailsErrors and recomputes every derived
 * field (product_type, no_of_days, complete_phone_number): what the browser sends for those
 * is ignored.
 */

const utm = v.optional(v.nullable(v.pipe(v.string(), v.maxLength(200))), null);

export const addCustomerLeadRequestSchema = v.object({
  ...travelDetailsSchema.entries,
  /** Present when the customer edits a lead they came back to: that lead is updated. */
  uuid: v.optional(v.nullable(uuidSchema), null),
  device_uuid: v.optional(v.nullable(uuidSchema), null),
  session_id: v.optional(v.nullable(uuidSchema), null),
  lang: langSchema,
  preferred_language: v.optional(langSchema),
  agent_id: agentIdSchema,
  deleted_members: v.optional(v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(1))), v.maxLength(20)), []),
  utm_source: utm,
  utm_medium: utm,
  utm_campaign: utm,
  utm_content: utm,
  /**
   * "Buy again" from a policy page (issue 37 item 2): that page's token. Once the lead is saved,
   * each new traveller whose date of birth (and, between two of one date, order) matches one of
   * that policy's travellers gets their review fields (title, names, passport, gender, marital
   * status, nationality, residence, relationship) filled in, still to be confirmed at review. A
   * token that names no policy changes nothing.
   */
  from_policy: v.optional(v.nullable(policyPageTokenSchema), null),
  // Sent by the spec's client, recomputed by the server.
  product_type: v.optional(v.unknown()),
  no_of_days: v.optional(v.unknown()),
  complete_phone_number: v.optional(v.unknown()),
});
export type AddCustomerLeadRequest = v.InferInput<typeof addCustomerLeadRequestSchema>;

export const customerSchema = v.object({
  id: v.number(),
  name: v.string(),
  email: v.string(),
  phone_country_code: v.string(),
  phone_number: v.string(),
  complete_phone_number: v.string(),
});

export const travellerSchema = v.object({
  ...travellerInputSchema.entries,
  id: v.number(),
  /** The lead this traveller belongs to (spec §3 Traveller). */
  bai_misc_lead_id: v.number(),
  dob: v.string(),
  /** The same date as the spec's clients print it, DD/MM/YYYY. */
  date_of_birth: v.string(),
  /** Null until the customer picks one at review; the principal is always 5. */
  relationship_type_id: v.nullable(v.number()),
  /** The relationship's name in the asked language, or null while none is chosen. */
  relationship_type_text: v.nullable(v.string()),
  /** The lead's trip type (1 single trip, 2 annual multi-trip), which this traveller is insured for. */
  insurance_type: v.number(),
  /** Review fields (title, passport, gender, marital status, nationality, residence): null until saved at review. */
  type: v.nullable(v.number()),
  passport: v.nullable(v.string()),
  gender_id: v.nullable(v.number()),
  marital_status_id: v.nullable(v.number()),
  nationality_id: v.nullable(v.number()),
  country_id: v.nullable(v.number()),
  /** The names of those ids in the asked language (title, gender, nationality, residence), as checkout shows them. */
  type_text: v.nullable(v.string()),
  gender_text: v.nullable(v.string()),
  nationality_text: v.nullable(v.string()),
  country_text: v.nullable(v.string()),
  /** True once the traveller was saved at review (save-traveller-info). */
  is_field: v.boolean(),
  /** Every traveller is editable at review (RULINGS 9). */
  is_editable: v.boolean(),
});

/** The lead as saved: the form's fields, the server's derived figures and the travellers. */
export const leadDetailsSchema = v.object({
  id: v.number(),
  uuid: v.string(),
  lang: langSchema,
  name: v.string(),
  /** The first traveller is the person named on the lead. */
  is_self: v.boolean(),
  email: v.string(),
  phone_country_code: v.string(),
  phone_number: v.string(),
  complete_phone_number: v.string(),
  inbound_outbound: v.boolean(),
  /** 1 individual, 2 family (the family plan of spec §5). */
  insured_type_id: v.picklist([1, 2]),
  trip_type: v.number(),
  product_type: v.number(),
  start_date: v.string(),
  end_date: v.string(),
  no_of_days: v.number(),
  destination_id: v.array(v.number()),
  /** The destinations' names in the asked language, joined with the language's list separator. */
  destination_country: v.string(),
  source_id: v.nullable(v.number()),
  /** The name of the country the trip starts from, in the asked language. */
  source: v.string(),
  /** Always true: every lead here is a travel enquiry. */
  is_travel: v.boolean(),
  no_of_traveller: v.number(),
  is_family: v.boolean(),
  agent_id: v.number(),
  /** The principal's date of birth. */
  dob: v.string(),
  travellers_info: v.array(travellerSchema),
  /** Ids of travellers removed from the lead (spec §4). */
  deleted_members: v.array(v.number()),
  /** The lead's session id, only to a caller that sent it (RULINGS 24); otherwise null. */
  session_id: v.nullable(v.string()),
  utm_source: v.nullable(v.string()),
  utm_medium: v.nullable(v.string()),
  utm_campaign: v.nullable(v.string()),
  utm_content: v.nullable(v.string()),
});
export type LeadDetails = v.InferOutput<typeof leadDetailsSchema>;

export const addCustomerLeadEndpoint = defineEndpoint(
  '/miscellaneous/travel/wiz/add-customer-lead',
  addCustomerLeadRequestSchema,
  v.object({
    customer: customerSchema,
    uuid: v.string(),
    lead_map_id: v.number(),
    /**
     * The lead's session id: a new lead's, or the one the caller sent for the lead it edits.
     * Null when the caller edited a lead by uuid alone: the session id is what allows changing
     * the lead's e-mail and phone, so it is never handed to a caller who did not have it.
     */
    session_id: v.nullable(v.string()),
    /** The caller's device id, or a new one the server issues when the caller's is unknown. */
    device_uuid: v.string(),
    /**
     * "thank-you" when no plan can quote the trip online (a traveller older than every plan
     * allows, a trip longer than every plan covers): the lead is kept for a manual quote, a
     * call-back task is recorded and the SPA shows /thank-you (RULINGS 12).
     */
    redirect: v.optional(v.nullable(v.picklist(['thank-you'])), null),
  }),
);

/** A recent search (spec §3 Recent search / lead tracker). */
export const recentSearchSchema = v.object({
  bai_misc_lead_id: v.number(),
  stage: v.picklist([1, 2, 3]),
  provider_name: v.nullable(v.string()),
  destination_name: v.string(),
  start_date: v.string(),
  end_date: v.string(),
  no_of_traveller: v.number(),
  last_visit: v.string(),
  uuid_lead: v.string(),
  /** The trip in short, without contact details: enough to tell two recent searches apart. */
  lead_details: v.object({
    trip_type: v.number(),
    inbound_outbound: v.boolean(),
    destination_id: v.array(v.number()),
    source_id: v.nullable(v.number()),
    is_family: v.boolean(),
  }),
  insurance_provider_id: v.nullable(v.number()),
  plan_id: v.nullable(v.number()),
  plan_ref_id: v.nullable(v.string()),
  /** The device's id, only in the answer to that device's own list; null elsewhere. */
  device_uuid: v.nullable(v.string()),
  status: v.number(),
  /**
   * The policy page, /policy/<token>, of a trip whose order is paid and holds a policy (RULINGS
   * 28: the resume dialog lists those apart and opens their page); null for every other trip.
   * The server always sends it; optional without a default only so that values typed before it
   * (fixtures of the machines and screens) stay valid: read a missing one as null.
   */
  policy_page: v.optional(v.nullable(v.string())),
});
export type RecentSearch = v.InferOutput<typeof recentSearchSchema>;

export const personalDetailsEndpoint = defineEndpoint(
  '/miscellaneous/travel/wiz/get-personal-details',
  v.object({
    uuid: uuidSchema,
    /** With the lead's own session id, lead_details.session_id answers it back. */
    session_id: v.optional(v.nullable(uuidSchema), null),
    lang: v.optional(langSchema, 'en'),
  }),
  v.object({
    customer: v.object({
      get_customer: customerSchema,
      lead_details: leadDetailsSchema,
      /**
       * The plan chosen with proceed-review and its add-ons and totals, as the server stored it
       * (spec §3 Invoice); null while no plan is chosen (a new lead, or details changed since).
       */
      get_invoice: v.nullable(invoiceSchema),
      /** What the chosen plan costs without a coupon, line by line (the server's totals module); null with get_invoice. */
      checkout_totals: v.nullable(checkoutTotalsSchema),
      /** True once the lead's order is paid: it cannot be bought again (checkout sends the user to travel details). */
      isLeadAlreadyInDeal: v.boolean(),
      recent_searches: v.array(recentSearchSchema),
      /**
       * The lead's policy page, /policy/<token>, once its order is paid and holds a policy (RULINGS
       * 28); else null. Always sent; optional as recent_searches' policy_page is (read a missing one as null).
       */
      policy_page: v.optional(v.nullable(v.string())),
    }),
  }),
);


export const latestLeadsByDeviceEndpoint = defineEndpoint(
  '/miscellaneous/travel/wiz/get-latest-leads-by-device-id',
  v.object({ device_uuid: uuidSchema, lang: v.optional(langSchema, 'en') }),
  v.object({ leads: v.array(recentSearchSchema), recent: v.array(recentSearchSchema) }),
);

/** Checks an agent_id from the query against the agents table (RULINGS 14). */
export const agentCheckEndpoint = defineEndpoint(
  '/miscellaneous/travel/wiz/agent',
  v.object({ agent_id: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_147_483_647)), lang: v.optional(langSchema, 'en') }),
  v.object({ agent: v.object({ id: v.number(), name: v.string() }) }),
);
