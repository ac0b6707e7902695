import type { Language } from '../../contract/endpoint';
import type { Config } from '../config';
import type { orders } from '../db/schema';
import { apsSignature } from './aps-signature';
import { MERCHANT_REFERENCE_PATTERN } from '../../contract/payment.endpoints';

/** What the PURCHASE form needs of an order: its attempt's reference and what the customer pays. */
export type PurchaseOrder = Pick<typeof orders.$inferSelect, 'merchantReference' | 'totalCents'>;

/** The configuration the PURCHASE form is built and signed with. */
export type PurchaseConfig = Pick<Config, 'apsAccessCode' | 'apsMerchantIdentifier' | 'apsRequestPhrase' | 'apsShaType'>;

/**
 * The Amazon Payment Services redirection PURCHASE request of an order (RULINGS 19, spec §7
 * payfort-data), without its signature: what temp-checkout stores as sent (orders.purchase_fields)
 * and what every payment notice's echoed fields are compared with. The amount is in minor units:
 * USD cents as a whole-number string ("123456" for $1,234.56). Pure: the order's figures are the
 * server's own, frozen at checkout, never the browser's.
 */
export function purchaseRequest(input: {
  order: PurchaseOrder;
  config: Pick<PurchaseConfig, 'apsAccessCode' | 'apsMerchantIdentifier'>;
  lang: Language;
  email: string;
  returnUrl: string;
}): Record<string, string> {
  const { order, config, lang, email, returnUrl } = input;
  if (!Number.isSafeInteger(order.totalCents) || order.totalCents < 0) {
    throw new RangeError(`purchaseFields: the amount must be a whole number of cents, not ${order.totalCents}`);
  }
  if (!MERCHANT_REFERENCE_PATTERN.test(order.merchantReference)) {
    throw new RangeError(`purchaseFields: APS refuses the merchant reference ${JSON.stringify(order.merchantReference)}`);
  }
  return {
    command: 'PURCHASE',
    access_code: config.apsAccessCode,
    merchant_identifier: config.apsMerchantIdentifier,
    merchant_reference: order.merchantReference,
    amount: String(order.totalCents),
    currency: 'USD',
    language: lang,
    customer_email: email,
    return_url: returnUrl,
  };
}

/** A stored PURCHASE request with its signature: SHA of request phrase + sorted key=value pairs + request phrase (aps-signature.ts). */
export function signPurchase(request: Record<string, string>, config: Pick<PurchaseConfig, 'apsRequestPhrase' | 'apsShaType'>): Record<string, string> {
  return { ...request, signature: apsSignature(request, config.apsRequestPhrase, config.apsShaType) };
}

/** The signed PURCHASE form of an order: the fields the payments page posts to the gateway. */
export function purchaseFields(input: Parameters<typeof purchaseRequest>[0] & { config: PurchaseConfig }): Record<string, string> {
  return signPurchase(purchaseRequest(input), input.config);
}
