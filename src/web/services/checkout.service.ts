import type { Language } from '../../contract/endpoint';
import { couponValidateEndpoint, tempCheckoutEndpoint } from '../../contract/checkout.endpoints';
import { callEndpoint } from './http-client';

/**
 * Checks a coupon for the lead's chosen plan (spec §7 coupon/validate): the discount and the
 * order's totals with it, as the server computes them. A refused coupon rejects with an ApiError
 * whose envelope carries the code (errors.promo_code) and the message shown under the box.
 */
export function validateCoupon(request: { uuid: string; code: string; lang: Language }) {
  return callEndpoint(couponValidateEndpoint, { uuid: request.uuid, promo_code: request.code, language: request.lang, insurance_type: 'travel' });
}

/**
 * Places the order (spec §7 temp-checkout) with the total the page shows; the server recomputes
 * it and refuses a different figure (409 totals_changed with its own). Answers whether nothing is
 * left to pay (redirect_to_thank_you) or where the payments page is.
 */
export function tempCheckout(request: { uuid: string; sessionId: string | null; agentId: number | null; lang: Language; coupon: string | null; total: number }) {
  return callEndpoint(tempCheckoutEndpoint, {
    uuid: request.uuid,
    session_id: request.sessionId,
    agent_id: request.agentId,
    language: request.lang,
    coupon: request.coupon,
    total_price_vat: request.total,
  });
}
