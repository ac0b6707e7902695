import * as v from 'valibot';
import { defineEndpoint, langSchema, policyPageTokenSchema } from './endpoint';
import { travelDetailsSchema } from './travel-details.rules';

/**
 * The customer's own policy page, /policy/<token> (issue 37 item 2, RULINGS 28). The token is
 * the policy's page token (policies.page_token: 64 hex digits drawn by the database), never the
 * certificate's download token. It reaches the page from the policy mail, the payment result,
 * the resume dialog and every journey link to a paid lead. A token that names no policy, or is
 * not a token at all (checked before any query), answers the same 404 `not_found` with empty data
 * whatever was tried; the three endpoints count together per address (RATE_LIMITS.policyPage),
 * so guessing is pointless.
 */


/** The path of a policy's page in the SPA. */
export const policyPagePath = (token: string) => `/policy/${token}`;

/** Why the customer asks to cancel (the broker's cancel reasons, issue 36 item 5). */
export const CANCELLATION_REASONS = ['visa_refused', 'trip_cancelled', 'other'] as const;
export type CancellationReason = (typeof CANCELLATION_REASONS)[number];

/** open: the broker has not answered; done: the policy was cancelled; declined: the broker kept it. */
export const CANCELLATION_REQUEST_STATUSES = ['open', 'done', 'declined'] as const;

export const CANCELLATION_NOTE_MAX = 500;

/** valid: in force today; not_started: starts later; expired: ended; cancelled: cancelled by the broker. */
export const POLICY_STATUSES = ['valid', 'not_started', 'expired', 'cancelled'] as const;
export type PolicyStatus = (typeof POLICY_STATUSES)[number];

const cancellationRequestSchema = v.object({
  reason: v.picklist(CANCELLATION_REASONS),
  note: v.string(),
  status: v.picklist(CANCELLATION_REQUEST_STATUSES),
  /** ISO 8601. */
  created_at: v.string(),
});

export const policyPageSchema = v.object({
  policy_number: v.string(),
  status: v.picklist(POLICY_STATUSES),
  /** ISO 8601. */
  issued_at: v.string(),
  insurer: v.object({
    /** In the asked language. */
    name: v.string(),
    /** The insurer's 24/7 emergency assistance line as printed ("+961 1 555 712"); '' when none is set. */
    assistance_phone: v.string(),
  }),
  plan: v.object({
    name: v.string(),
    coverage: v.string(),
    /** A Family plan: one policy for the family (spec §5). */
    family: v.boolean(),
    medical_limit_usd: v.number(),
    schengen_visa_compliant: v.boolean(),
  }),
  /** The add-ons bought, as covers: name in the asked language and the most each pays per traveller (USD; null: no sum). */
  addons: v.array(v.object({ code: v.string(), name: v.string(), limit_usd: v.nullable(v.number()) })),
  trip: v.object({
    /** 1 single trip, 2 annual multi-trip. */
    trip_type: v.number(),
    /** YYYY-MM-DD. */
    start_date: v.string(),
    end_date: v.string(),
    days: v.number(),
    direction: v.picklist(['outbound', 'inbound']),
    /** In the asked language, in the order chosen. */
    destinations: v.array(v.string()),
    source: v.string(),
  }),
  travellers: v.array(
    v.object({
      /** As on the passport (Latin letters). */
      name: v.string(),
      /** YYYY-MM-DD. */
      dob: v.string(),
      /** All but the last 3 characters replaced by "•"; null where the plan did not ask for it. */
      passport: v.nullable(v.string()),
    }),
  ),
  /** What was paid, integer cents, as the order holds it: plan + add-ons − discount + VAT + stamp fee = total. */
  receipt: v.object({
    plan_cents: v.number(),
    addons: v.array(v.object({ name: v.string(), cents: v.number() })),
    discount_cents: v.number(),
    coupon_code: v.nullable(v.string()),
    vat_percent: v.number(),
    vat_cents: v.number(),
    stamp_cents: v.number(),
    total_cents: v.number(),
    merchant_reference: v.string(),
  }),
  /** The certificate PDF in each language (absolute paths on this site). */
  certificate: v.object({ en: v.string(), ar: v.string() }),
  /** The policy's e-mail, masked ("ra•••@example.com"): where "Send it again" sends. */
  email: v.string(),
  /** A cancellation can be asked for while the policy has not started, is not cancelled, and none was asked yet. */
  can_request_cancellation: v.boolean(),
  cancellation_request: v.nullable(cancellationRequestSchema),
  /**
   * "Buy again": the travel details of this policy with the dates left empty, for the travel
   * details form to open with (the same travellers, dates of birth, contact and destinations).
   */
  buy_again: travelDetailsSchema,
});
export type PolicyPage = v.InferOutput<typeof policyPageSchema>;

export const policyPageEndpoint = defineEndpoint(
  '/miscellaneous/travel/wiz/policy-page',
  v.object({ token: policyPageTokenSchema, lang: v.optional(langSchema, 'en') }),
  v.object({ policy: policyPageSchema }),
);

/**
 * Sends the certificate again to the policy's e-mail (through the mail outbox, in the order's
 * language, as the broker's `mail resend` does), and answers that e-mail masked. Limited per
 * policy per hour (RATE_LIMITS.policyResend): over it, 429 with `errors.token = 'rate_limited'`,
 * a Retry-After header and `retry_after_seconds` (policyResendLimitedSchema).
 */
export const policyResendEndpoint = defineEndpoint(
  '/miscellaneous/travel/wiz/policy-page/resend',
  v.object({ token: policyPageTokenSchema, lang: v.optional(langSchema, 'en') }),
  v.object({ email: v.string() }),
);

/** The data of the resend's 429: seconds until the policy's hour is over (also the Retry-After header). */
export const policyResendLimitedSchema = v.looseObject({ retry_after_seconds: v.number() });

/**
 * Asks the broker to cancel a policy that has not started, and answers the page as it is now.
 * One request per policy: a second, or one for a policy that started or is cancelled, is a 409
 * with `errors.token = 'cancellation_not_allowed'`. The note is trimmed, then at most
 * CANCELLATION_NOTE_MAX UTF-16 units (what a textarea's maxlength counts); like every string of
 * the API it may hold no control character (RULINGS 25), a line break included, so the page sends
 * line breaks as spaces.
 */
export const policyCancellationEndpoint = defineEndpoint(
  '/miscellaneous/travel/wiz/policy-page/cancellation-request',
  v.object({
    token: policyPageTokenSchema,
    reason: v.picklist(CANCELLATION_REASONS),
    note: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(CANCELLATION_NOTE_MAX)), ''),
    lang: v.optional(langSchema, 'en'),
  }),
  v.object({ policy: policyPageSchema }),
);
