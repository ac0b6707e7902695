import * as v from 'valibot';
import { agentIdSchema, defineEndpoint, langSchema, uuidSchema } from './endpoint';
import { highlightSchema, invoiceSchema } from './invoice.schema';
import { customerSchema, leadDetailsSchema } from './lead.endpoints';

/**
 * Quotes, plan choice, shares and call-backs (spec §3 Quote and Invoice, §7 calls, RULINGS
 * 10–16). Money is integer US cents (RULINGS 17) except `premium_round`, which is the whole
 * dollars the spec shows. Every figure is the server's: what the browser sends about money is
 * checked against the stored quote and never used.
 */

const id = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_147_483_647));
const cents = v.pipe(v.number(), v.integer());
/** A link back to a page of the SPA, as the agent shares it (http or https only). */
const linkSchema = v.pipe(v.string(), v.maxLength(2000), v.url(), v.regex(/^https?:\/\//));

/** Cover zones, from the destinations: Schengen only, worldwide without USA/Canada, worldwide. */
export const ZONES = ['schengen', 'worldwide_ex_us_ca', 'worldwide'] as const;
export type Zone = (typeof ZONES)[number];

/** An optional cover priced for this quote's whole party. */
export const quoteAddonSchema = v.object({
  id: v.number(),
  /** winter_sports, trip_cancellation, adventure_sports, … */
  code: v.string(),
  label: v.string(),
  label_ar: v.string(),
  /** Price of the add-on for the party, cents, VAT excluded. */
  value: cents,
  /** The price as the spec shows it: "$25". */
  value_to_display: v.string(),
  /** Both spec names of "ticked by default"; always false in a fresh quote. */
  addonCheck: v.boolean(),
  checked_addon: v.boolean(),
  /** True when no traveller may take it (winter sports with every traveller over 70). */
  disabled_addon: v.boolean(),
  /** Oldest age covered by the add-on (winter sports: 70), or null; the UI prints the rule. */
  max_age: v.nullable(v.number()),
  /** How many travellers the price covers (winter sports leaves out those over max_age). */
  covered_travellers: v.number(),
});
export type QuoteAddon = v.InferOutput<typeof quoteAddonSchema>;

export const benefitSchema = v.object({
  label: v.string(),
  label_ar: v.string(),
  value_to_display: v.string(),
  value_to_display_ar: v.string(),
});
export type Benefit = v.InferOutput<typeof benefitSchema>;

export const quoteSchema = v.object({
  /** The stored quote's id; proceed-review sends it back as policy_id. */
  id: v.number(),
  /** Stable across re-quotes of the same lead: "<provider_plan_id>-<zone>". */
  compare_id: v.string(),
  /** Plan premium for the whole party, cents, VAT excluded, no add-ons. */
  premium: cents,
  /** The premium in whole dollars, as shown. */
  premium_round: v.number(),
  /** One line per traveller: label in the asked language ("Traveller 2, 41 years"), value in cents. */
  premium_per_person: v.array(v.object({ label: v.string(), value: cents })),
  provider: v.object({ id: v.number(), name: v.string(), name_ar: v.string(), image: v.string() }),
  provider_plan_id: v.number(),
  coverage_id: v.number(),
  /** Plan name in the asked language. */
  wizard_plan_name: v.string(),
  /** "Individual" or "Family" (or several travellers), in the asked language. */
  product_type_name: v.string(),
  zone: v.picklist(ZONES),
  trip_type: v.picklist([1, 2]),
  /** Medical limit in US dollars, for sorting; the highlight carries the plan's own wording. */
  medical_limit_usd: v.number(),
  /** Meets the Schengen visa minimum (EUR 30,000 medical, every Schengen state). */
  schengen_visa_compliant: v.boolean(),
  planDocuments: v.object({ file_url: v.string() }),
  is_instant_policy: v.boolean(),
  is_instant_policy_text: v.string(),
  /** 0 when the plan is issued through the insurer's API-less back office (spec §2 checkout). */
  is_api_plan: v.picklist([0, 1]),
  highlight: v.array(highlightSchema),
  addon: v.array(quoteAddonSchema),
  benefits: v.array(benefitSchema),
});
export type Quote = v.InferOutput<typeof quoteSchema>;

/** The lead as the quote list heads it: the saved details plus names for display. */
export const quotedLeadSchema = v.object({
  ...leadDetailsSchema.entries,
  destination_names: v.array(v.string()),
  source_name: v.string(),
  stage: v.picklist([1, 2, 3]),
});
export type QuotedLead = v.InferOutput<typeof quotedLeadSchema>;

export const compareQuotesEndpoint = defineEndpoint(
  '/miscellaneous/travel/wiz/compare-quotes',
  v.object({
    uuid: uuidSchema,
    /** The page link an agent shares; used in whatapp_template. */
    link: v.optional(v.nullable(linkSchema), null),
    lang: v.optional(langSchema, 'en'),
  }),
  v.object({
    quotes: v.array(quoteSchema),
    customer: customerSchema,
    lead: quotedLeadSchema,
    /** The WhatsApp message with the page link (RULINGS 15); wa.me link built by whatsappShareUrl. */
    whatapp_template: v.string(),
    /** True only when quoting failed outright (every insurer failed): the SPA shows the error dialog. */
    hasError: v.boolean(),
    /** Insurers that did not answer in time; their quotes are missing, the others show. */
    unavailable_providers: v.array(v.object({ id: v.number(), name: v.string() })),
  }),
);

/** Bot check (RULINGS 16): an ALTCHA challenge the browser solves in a Web Worker. */
export const botChallengeEndpoint = defineEndpoint(
  '/miscellaneous/travel/wiz/bot-challenge',
  v.object({ lang: v.optional(langSchema, 'en') }),
  v.object({
    algorithm: v.string(),
    challenge: v.string(),
    maxnumber: v.optional(v.number()),
    salt: v.string(),
    signature: v.string(),
  }),
);

/** proceed-review and proceed-buy-now take the same payload (spec §7) plus the bot-check token and add-ons. */
export const proceedRequestSchema = v.object({
  uuid: uuidSchema,
  /** The stored quote's id (quote.id). */
  policy_id: id,
  /** Add-on ids the customer ticked on that quote. */
  addons: v.optional(v.pipe(v.array(id), v.maxLength(20)), []),
  /** What the browser showed; compared with the server's figure and recorded, never charged. */
  selected_premium: v.optional(v.unknown()),
  quote: v.optional(v.unknown()),
  recent_searches: v.optional(v.unknown()),
  agent_id: agentIdSchema,
  session_id: v.optional(v.nullable(uuidSchema), null),
  /** The solved ALTCHA payload (base64 JSON), or with BOT_CHECK=recaptcha a reCAPTCHA v3 token; single use. */
  bot_token: v.pipe(v.string(), v.maxLength(4000)),
  lang: v.optional(langSchema, 'en'),
});
export type ProceedRequest = v.InferInput<typeof proceedRequestSchema>;

const proceedResponseSchema = v.object({
  leads: v.object({ uuid: v.string(), stage: v.picklist([1, 2, 3]) }),
  /** Always null: a lead's device id is only handed to that device (RULINGS 24). */
  device_uuid: v.null(),
  /** The session id the caller sent when it is the lead's, else null. */
  session_id: v.nullable(v.string()),
  invoice: invoiceSchema,
});

export const proceedReviewEndpoint = defineEndpoint('/miscellaneous/travel/wiz/proceed-review', proceedRequestSchema, proceedResponseSchema);
export const proceedBuyNowEndpoint = defineEndpoint('/miscellaneous/travel/wiz/proceed-buy-now', proceedRequestSchema, proceedResponseSchema);

/** Pages an agent can share (spec §7 send-email-by-page pagename). */
export const SHARE_PAGES = ['compare-quotes', 'compare-offers', 'review-details', 'checkout'] as const;

export const sendEmailByPageEndpoint = defineEndpoint(
  '/miscellaneous/travel/wiz/send-email-by-page',
  v.object({
    uuid: uuidSchema,
    pagename: v.picklist(SHARE_PAGES),
    agent_id: agentIdSchema,
    link: linkSchema,
    lang: v.optional(langSchema, 'en'),
  }),
  v.object({ sent: v.boolean() }),
);

const latestLeadData = v.object({
  customer: v.object({ get_customer: customerSchema, lead_details: leadDetailsSchema }),
  whatapp_template: v.string(),
  /** True once the lead has a paid or issued order: it cannot be bought again. */
  isLeadAlreadyInDeal: v.boolean(),
});

export const latestLeadByIdEndpoint = defineEndpoint(
  '/miscellaneous/travel/wiz/get-latest-leads-by-lead-id',
  v.object({
    lead_id: id,
    /**
     * The lead's session id (RULINGS 24): lead ids are sequential, so an id alone opens nothing.
     * Without the matching session id the answer is a 404, as for an unknown id.
     */
    session_id: v.optional(v.nullable(uuidSchema), null),
    link: v.optional(v.nullable(linkSchema), null),
    lang: v.optional(langSchema, 'en'),
  }),
  latestLeadData,
);

export const latestLeadByUuidEndpoint = defineEndpoint(
  '/miscellaneous/travel/wiz/get-latest-leads-by-uuid',
  v.object({ uuid: uuidSchema, link: v.optional(v.nullable(linkSchema), null), lang: v.optional(langSchema, 'en') }),
  latestLeadData,
);

/** Why a call-back was asked for; the broker's list shows it. */
export const CALL_BACK_REASONS = ['no_online_quote', 'no_quotes_found', 'header', 'customer_request'] as const;
export type CallBackReason = (typeof CALL_BACK_REASONS)[number];

/** The short wizard's first step (RULINGS 13): who to call, stored as a call-back task. */
export const requestCallBackEndpoint = defineEndpoint(
  '/miscellaneous/travel/wiz/request-call-back',
  v.object({
    name: v.string(),
    email: v.string(),
    phone_country_code: v.string(),
    phone_number: v.string(),
    /** The lead the visitor was on, when there is one. */
    uuid: v.optional(v.nullable(uuidSchema), null),
    reason: v.optional(v.picklist(CALL_BACK_REASONS), 'customer_request'),
    agent_id: agentIdSchema,
    lang: v.optional(langSchema, 'en'),
  }),
  v.object({ call_back_id: v.number() }),
);

/** RULINGS 15: the wa.me link for a customer's complete phone number and the server's message. */
export function whatsappShareUrl(completePhoneNumber: string, text: string): string {
  return `https://wa.me/${completePhoneNumber.replace(/\D/g, '')}?text=${encodeURIComponent(text)}`;
}
