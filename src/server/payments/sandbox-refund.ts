import { MERCHANT_REFERENCE_PATTERN } from '../../contract/payment.endpoints';
import { APS_COMMAND_KEYS } from './aps-response-contract';
import { verifyApsSignature } from './aps-signature';
import { signResponse, type FormFields, type SandboxMerchant } from './sandbox-gateway';

/**
 * The embedded APS sandbox's REFUND command (issue 36 item 4), pure: which requests it takes and
 * the signed JSON it answers with. aps-sandbox.routes.ts finds the capture and records the refund.
 *
 * APS's REFUND is a server-to-server POST of JSON to its paymentApi: command REFUND, access_code,
 * merchant_identifier, merchant_reference and fort_id (the capture), amount (minor units, at most
 * what is left of the capture), currency, language, an optional maintenance_reference (the
 * merchant's own reference of this operation) and the signature of the rest under the REQUEST
 * phrase (aps-signature.ts). The answer echoes them and adds status, response_code and
 * response_message, signed with the RESPONSE phrase:
 * - 06 / 06000 "Success": the amount is given back.
 * - 07 / 07000 "Refund failed", with the sandbox's reason: no such capture for this merchant
 *   reference and fort_id, another currency, or more than is left of the capture.
 * - 00 / 00001 "Missing parameter", 00002 "Invalid parameter format", 00008 "Signature mismatch":
 *   a request not taken (APS's invalid request, as for a PURCHASE).
 * The 06 and 07 statuses are APS's; the 07 message codes are this sandbox's own (Safar reads the
 * status and keeps the message for the broker).
 */

export const REFUND_REQUIRED_FIELDS = [...APS_COMMAND_KEYS, 'fort_id', 'signature'] as const;

/** The request fields the answer echoes. */
const ECHOED = [...APS_COMMAND_KEYS, 'fort_id', 'maintenance_reference'] as const;

const FORMATS: Record<Exclude<(typeof REFUND_REQUIRED_FIELDS)[number], 'signature'> | 'maintenance_reference', RegExp> = {
  command: /^REFUND$/,
  access_code: /^[A-Za-z0-9]{1,40}$/,
  merchant_identifier: /^[A-Za-z0-9]{1,40}$/,
  merchant_reference: MERCHANT_REFERENCE_PATTERN,
  amount: /^[1-9][0-9]{0,9}$/,
  currency: /^[A-Z]{3}$/,
  language: /^(en|ar)$/,
  fort_id: /^[0-9]{1,20}$/,
  maintenance_reference: MERCHANT_REFERENCE_PATTERN,
};

/** A REFUND the sandbox takes: the capture it names and what it asks back. */
export interface RefundRequest {
  fields: FormFields;
  merchantReference: string;
  fortId: string;
  amountCents: number;
  currency: string;
  maintenanceReference: string | null;
}

function echoed(fields: FormFields): FormFields {
  const out: FormFields = {};
  for (const name of ECHOED) if (fields[name] !== undefined) out[name] = fields[name];
  return out;
}

function answer(fields: FormFields, status: '00' | '06' | '07', code: string, text: string, merchant: SandboxMerchant): FormFields {
  return signResponse({ ...echoed(fields), response_code: code, response_message: text, status }, merchant);
}

/**
 * Reads a REFUND body (parsed JSON, anything): the request it makes, or the signed refusal of a
 * request not taken. Every field must be a string, as APS's JSON carries them.
 */
export function checkRefundRequest(body: unknown, merchant: SandboxMerchant): { ok: true; request: RefundRequest } | { ok: false; response: FormFields } {
  const fields: FormFields = {};
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    for (const [name, value] of Object.entries(body)) if (typeof value === 'string') fields[name] = value;
  }
  for (const name of REFUND_REQUIRED_FIELDS) {
    if (!fields[name]) return { ok: false, response: answer(fields, '00', '00001', 'Missing parameter', merchant) };
  }
  for (const [name, format] of Object.entries(FORMATS)) {
    if (fields[name] !== undefined && !format.test(fields[name])) return { ok: false, response: answer(fields, '00', '00002', 'Invalid parameter format', merchant) };
  }
  if (fields.access_code !== merchant.apsAccessCode || fields.merchant_identifier !== merchant.apsMerchantIdentifier) {
    return { ok: false, response: answer(fields, '00', '00002', 'Invalid parameter format', merchant) };
  }
  // Every field received is signed, whatever it is named (aps-signature.ts), as for a PURCHASE.
  if (!verifyApsSignature(fields, merchant.apsRequestPhrase, merchant.apsShaType)) {
    return { ok: false, response: answer(fields, '00', '00008', 'Signature mismatch', merchant) };
  }
  return {
    ok: true,
    request: {
      fields,
      merchantReference: fields.merchant_reference!,
      fortId: fields.fort_id!,
      amountCents: Number(fields.amount),
      currency: fields.currency!,
      maintenanceReference: fields.maintenance_reference ?? null,
    },
  };
}

/** What the sandbox knows of a capture when a REFUND names it. */
export interface SandboxCapture {
  merchantReference: string;
  amountCents: number;
  currency: string;
  refundedCents: number;
}

/** The answer to a REFUND the sandbox took, for the capture its fort_id names (null: none); refunded says to give the amount back. */
export function refundResponse(request: RefundRequest, capture: SandboxCapture | null, merchant: SandboxMerchant): { response: FormFields; refunded: boolean } {
  const refused = (reason: string) => ({ response: answer(request.fields, '07', '07000', `Refund failed: ${reason}`, merchant), refunded: false });
  if (!capture || capture.merchantReference !== request.merchantReference) return refused('no such transaction');
  if (capture.currency !== request.currency) return refused('another currency');
  if (request.amountCents > capture.amountCents - capture.refundedCents) return refused('more than is left to refund');
  return { response: answer(request.fields, '06', '06000', 'Success', merchant), refunded: true };
}
