import * as v from 'valibot';

/**
 * The chosen plan as the server stores it (spec §3 Invoice) and the plan highlights it carries.
 * Kept apart from the endpoints so both the lead endpoints (get-personal-details answers the
 * invoice) and the quote endpoints can use it without importing each other.
 */

const cents = v.pipe(v.number(), v.integer());

/** Sections of a plan's highlights (spec §3): 1 shown at review, 1–3 at checkout. */
export const highlightSchema = v.object({
  /** Stable key: medical, evacuation, repatriation, baggage, delay, liability, covid19, … */
  key: v.string(),
  label: v.string(),
  label_ar: v.string(),
  value: v.string(),
  value_ar: v.string(),
  section: v.picklist([1, 2, 3]),
});
export type Highlight = v.InferOutput<typeof highlightSchema>;

/** spec §3 Invoice, in cents. */
export const invoiceSchema = v.object({
  quote_ref_no: v.string(),
  quote_id: v.number(),
  insurance_provider_id: v.number(),
  insurance_plan_id: v.number(),
  insurance_plan_name: v.string(),
  insurance_coverage_name: v.string(),
  insurance_cover_for: v.string(),
  insurance_plan_price: cents,
  policy_addons: v.array(v.object({ addon_id: v.number(), code: v.string(), addon_name: v.string(), addon_price: cents })),
  /** Plan + add-ons, before VAT. */
  total_price_without_vat: cents,
  /** VAT percent, e.g. 11. */
  vat: v.number(),
  vat_amount: cents,
  stamp_fee: cents,
  /** What the customer pays before any coupon: without VAT + VAT + stamp fee. */
  total_price_vat: cents,
  is_api_plan: v.picklist([0, 1]),
  premium_summary: v.array(v.object({ label: v.string(), value: cents })),
  highlight: v.array(highlightSchema),
  get_provider_detail: v.object({ id: v.number(), name: v.string(), image: v.string() }),
});
export type Invoice = v.InferOutput<typeof invoiceSchema>;

