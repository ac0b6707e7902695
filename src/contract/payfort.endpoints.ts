import * as v from 'valibot';
import { defineEndpoint, langSchema, uuidSchema } from './endpoint';
import { merchantReferenceSchema } from './payment.endpoints';

/**
 * payfort-data (spec §7; RULINGS 19): the Amazon Payment Services redirection form of one of
 * the lead's pending orders, the same fields the payments page /pay/<merchant_reference> posts.
 * Only the lead that placed the order gets them (RULINGS 24): another lead's order is "not
 * found" too. A paid, failed or expired attempt is refused with 409 and a field code under
 * merchant_reference; a retry is a new order from temp-checkout.
 */

/** Field codes of payfort-data's 409 refusals. */
export const PAYFORT_ORDER_CODES = ['order_paid', 'order_failed', 'order_expired'] as const;
export type PayfortOrderCode = (typeof PAYFORT_ORDER_CODES)[number];

export const payfortDataEndpoint = defineEndpoint(
  '/miscellaneous/travel/wiz/payfort-data',
  v.object({
    uuid: uuidSchema,
    /** The attempt's reference, as temp-checkout answered it (APS's characters, at most 40). */
    merchant_reference: merchantReferenceSchema,
    /** The gateway page's language; by default the order's. */
    language: v.optional(langSchema),
  }),
  v.object({
    /** Where the browser posts the form: the gateway's payment page (APS_GATEWAY_URL or the sandbox). */
    url: v.string(),
    /** The PURCHASE fields, signature included, one hidden input each; amount in minor units. */
    fields: v.record(v.string(), v.string()),
  }),
);
