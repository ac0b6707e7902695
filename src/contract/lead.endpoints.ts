import * as v from 'valibot';
import { defineEndpoint, langSchema } from './endpoint';
import { travelDetailsSchema, travellerInputSchema } from './travel-details.rules';

/**
 * Leads of the travel details step (spec §3 Customer / Traveller / Recent search, §7 calls).
 * The server validates the details with travelDetailsErrors and recomputes every derived
 * field (product_type, no_of_days, complete_phone_number): what the browser sends for those
 * is ignored.
 */

const uuidSchema = v.pipe(v.string(), v.uuid());
const utm = v.optional(v.nullable(v.pipe(v.string(), v.maxLength(200))), null);
const agentIdSchema = v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(2_147_483_647))), 0);

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
  dob: v.string(),
  /** Null until the customer picks one at review; the principal is always 5. */
  relationship_type_id: v.nullable(v.number()),
});

/** The lead as saved: the form's fields, the server's derived figures and the travellers. */
export const leadDetailsSchema = v.object({
  uuid: v.string(),
  lang: langSchema,
  name: v.string(),
  email: v.string(),
  phone_country_code: v.string(),
  phone_number: v.string(),
  complete_phone_number: v.string(),
  inbound_outbound: v.boolean(),
  trip_type: v.number(),
  product_type: v.number(),
  start_date: v.string(),
  end_date: v.string(),
  no_of_days: v.number(),
  destination_id: v.array(v.number()),
  source_id: v.nullable(v.number()),
  no_of_traveller: v.number(),
  is_family: v.boolean(),
  agent_id: v.number(),
  travellers_info: v.array(travellerSchema),
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
    session_id: v.string(),
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
  insurance_provider_id: v.nullable(v.number()),
  plan_id: v.nullable(v.number()),
  plan_ref_id: v.nullable(v.string()),
  device_uuid: v.string(),
  status: v.number(),
});
export type RecentSearch = v.InferOutput<typeof recentSearchSchema>;

export const personalDetailsEndpoint = defineEndpoint(
  '/miscellaneous/travel/wiz/get-personal-details',
  v.object({ uuid: uuidSchema, lang: v.optional(langSchema, 'en') }),
  v.object({
    customer: v.object({
      get_customer: customerSchema,
      lead_details: leadDetailsSchema,
      get_invoice: v.null(),
      recent_searches: v.array(recentSearchSchema),
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
