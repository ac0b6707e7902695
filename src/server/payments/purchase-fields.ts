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
 * The Amazon Payment Services redirection PURCHASE form of an order (RULINGS 19, spec §7
 * payfort-data): the fields the payments page posts to the gateway, `signature` included (SHA of
 * request phrase + sorted key=value pairs + request phrase, see aps-signature.ts). The amount is
 * in minor units: USD cents as a whole-number string ("123456" for $1,234.56). Pure: the order's
 * figures are the server's own, frozen at checkout, never the browser's.
 */
export function purchaseFields(input: {
  order: PurchaseOrder;
  config: PurchaseConfig;
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
  const fields: Record<string, string> = {
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
  return { ...fields, signature: apsSignature(fields, config.apsRequestPhrase, config.apsShaType) };
}
