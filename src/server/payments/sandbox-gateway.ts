import { randomInt } from 'node:crypto';
import { toWesternDigits } from '../../contract/digits';
import { apsSignature, verifyApsSignature, type ApsShaAlgorithm } from './aps-signature';
import { MERCHANT_REFERENCE_PATTERN } from '../../contract/payment.endpoints';
import { ECHOED_REQUEST_KEYS, SENT_REQUEST_KEYS } from './aps-response-contract';

/**
 * The decisions of the embedded Amazon Payment Services sandbox (RULINGS 20), pure: which
 * PURCHASE requests it accepts, what a typed card is, which cards succeed, and the signed fields
 * it answers with. sandbox-pages.ts draws the pages and aps-sandbox.routes.ts does the I/O.
 *
 * Codes are APS's: a response code is the 2-digit status + a 3-digit message code.
 * - 14 / 14000 "Success": purchase success, with the test card 4005550000000001.
 * - 13 / 13666 "Transaction declined": purchase failure, any other valid card.
 * - 00 / 00072 "Transaction canceled by user": the Cancel button.
 * - 00 / 00008 "Signature mismatch", 00001 "Missing parameter", 00002 "Invalid parameter format":
 *   an invalid request, sent back to its return_url (status 00 "Invalid request").
 * - 00 / 00007 "Duplicate order number": a valid PURCHASE whose merchant_reference (APS: "the
 *   merchant's unique order number") an earlier PURCHASE already carried, sent back the same way.
 * Sources: the status and message code tables of APS's error codes page
 * (paymentservices.amazon.com/docs/developer-resources/error-codes: status 00 "Invalid Request",
 * message 007 "Duplicate order number", 008 "Signature mismatch", 072 "Transaction canceled by
 * user", 666 "Transaction declined"), the same list the PayFort SDKs and plugins carry.
 */

/** The test card that succeeds (RULINGS 20); any other valid card number is declined. */
export const SUCCESS_CARD = '4005550000000001';

/** The configuration the sandbox acts as: the merchant it knows and the two phrases. */
export interface SandboxMerchant {
  apsAccessCode: string;
  apsMerchantIdentifier: string;
  apsRequestPhrase: string;
  apsResponsePhrase: string;
  apsShaType: ApsShaAlgorithm;
}

/** Fields a PURCHASE redirection request must carry, signature included. */
export const REQUIRED_REQUEST_FIELDS = [...SENT_REQUEST_KEYS, 'return_url', 'signature'] as const;

/** Format of each required field; a field that does not match is refused with 00002. */
const FORMATS: Record<Exclude<(typeof REQUIRED_REQUEST_FIELDS)[number], 'signature' | 'return_url'>, RegExp> = {
  command: /^PURCHASE$/,
  access_code: /^[A-Za-z0-9]{1,40}$/,
  merchant_identifier: /^[A-Za-z0-9]{1,40}$/,
  merchant_reference: MERCHANT_REFERENCE_PATTERN,
  // Minor units, more than 0 (APS takes no zero purchase).
  amount: /^[1-9][0-9]{0,11}$/,
  currency: /^[A-Z]{3}$/,
  language: /^(en|ar)$/,
  customer_email: /^[^\s@<>"']{1,64}@[^\s@<>"']{1,190}\.[^\s@<>"']{2,60}$/,
};

/** A form body as posted (application/x-www-form-urlencoded), one value per name. */
export type FormFields = Record<string, string>;

/**
 * Reads an urlencoded body into an object without a prototype (a field named "constructor" or
 * "__proto__" is just a field). A name sent twice makes the body ambiguous (which one was signed?),
 * so such a body is reported, not guessed at.
 */
export function parseFormBody(raw: string): { fields: FormFields; duplicated: boolean } {
  const fields: FormFields = Object.create(null) as FormFields;
  let duplicated = false;
  for (const [name, value] of new URLSearchParams(raw)) {
    if (Object.hasOwn(fields, name)) duplicated = true;
    fields[name] = value;
  }
  return { fields, duplicated };
}

/** Whether `url` is an absolute http(s) address the browser can be sent back to. */
export function isReturnUrl(url: string | undefined): url is string {
  if (!url || !URL.canParse(url)) return false;
  return /^https?:$/.test(new URL(url).protocol);
}

/** What the sandbox makes of a PURCHASE request. */
export type RequestCheck =
  /** No usable return_url: nowhere to send the browser back, so an error page (400). */
  | { kind: 'no_return_url' }
  /** Another merchant's access code or identifier: the sandbox cannot sign an answer for it (400 page). */
  | { kind: 'unknown_merchant' }
  /** Refused the way APS refuses: back to return_url with these signed fields. */
  | { kind: 'refused'; returnUrl: string; response: FormFields }
  /** A valid, signed request: the card page may be shown, if no earlier PURCHASE had its merchant_reference (sandbox-sessions.ts). */
  | { kind: 'accepted'; request: FormFields };

/**
 * Checks a PURCHASE redirection request: return_url first (without it there is nowhere to
 * answer), then the merchant, then that every required field is there (00001), then the
 * signature with the REQUEST phrase over every field sent (a changed amount fails here: 00008;
 * so does a field sent twice, since which copy was signed cannot be known), then that each
 * required field is well formed (00002). An accepted request is kept by the sandbox under its
 * session id (sandbox-sessions.ts); the card form carries none of it, so nothing can be changed on the way.
 */
export function checkPurchaseRequest(fields: FormFields, merchant: SandboxMerchant, duplicated = false): RequestCheck {
  const returnUrl = fields.return_url;
  if (!isReturnUrl(returnUrl)) return { kind: 'no_return_url' };
  if (fields.access_code !== merchant.apsAccessCode || fields.merchant_identifier !== merchant.apsMerchantIdentifier) {
    return { kind: 'unknown_merchant' };
  }
  const refuse = (code: '00001' | '00002' | '00008', text: string): RequestCheck => ({ kind: 'refused', returnUrl, response: invalidRequest(fields, code, text, merchant) });
  for (const name of REQUIRED_REQUEST_FIELDS) {
    if (fields[name] === undefined || fields[name] === '') return refuse('00001', 'Missing parameter');
  }
  if (duplicated || !verifyApsSignature(fields, merchant.apsRequestPhrase, merchant.apsShaType)) return refuse('00008', 'Signature mismatch');
  for (const [name, format] of Object.entries(FORMATS)) {
    if (!format.test(fields[name] ?? '')) return refuse('00002', 'Invalid parameter format');
  }
  return { kind: 'accepted', request: fields };
}

/** APS's signed answer to an invalid request (status 00), echoing the request's fields. */
function invalidRequest(fields: FormFields, code: '00001' | '00002' | '00007' | '00008', text: string, merchant: SandboxMerchant): FormFields {
  return signResponse({ ...echoed(fields), response_code: code, response_message: text, status: '00' }, merchant);
}

/**
 * The answer to an accepted PURCHASE request whose merchant_reference an earlier PURCHASE
 * already carried (issue 33 item 3): APS refuses it as an invalid request, 00007 "Duplicate order
 * number", so the second tab, or the Pay form posted again after Back, charges nothing and opens
 * no card page, whether the first request's payment is still open, declined or paid. Sent back to
 * return_url like the other refusals; no fort_id, as no transaction was made.
 */
export function duplicateReferenceResponse(request: FormFields, merchant: SandboxMerchant): FormFields {
  return invalidRequest(request, '00007', 'Duplicate order number', merchant);
}

/**
 * The request fields APS sends back, as they were sent: the same list payment notices are held to
 * (aps-response-contract.ts), so a sandbox answer passes exactly the checks a real one must.
 */
function echoed(fields: FormFields): FormFields {
  const out: FormFields = {};
  for (const name of ECHOED_REQUEST_KEYS) if (fields[name] !== undefined) out[name] = fields[name];
  return out;
}

/** Response fields with their signature: SHA of the RESPONSE phrase + sorted pairs + phrase. */
export function signResponse(fields: FormFields, merchant: SandboxMerchant): FormFields {
  return { ...fields, signature: apsSignature(fields, merchant.apsResponsePhrase, merchant.apsShaType) };
}

/* ------------------------------------------------------------------------------------------- */
/* The card form                                                                               */
/* ------------------------------------------------------------------------------------------- */

/** The card fields as typed on the sandbox's page (APS's own parameter names). */
export interface CardInput {
  card_number: string;
  expiry_date: string;
  card_security_code: string;
  card_holder_name: string;
}

export const CARD_FIELDS = ['card_number', 'expiry_date', 'card_security_code', 'card_holder_name'] as const;
export type CardField = (typeof CARD_FIELDS)[number];

/** Why a card field was refused; each has a sandbox_error_* message. */
export type CardError = 'required' | 'card_number' | 'card_checksum' | 'expiry' | 'expired' | 'cvv' | 'name';

/** A card that passed the form's checks. */
export interface Card {
  /** Western digits only. */
  number: string;
  /** Two-digit month and year, as typed. */
  month: number;
  year: number;
  holderName: string;
}

/** The Luhn (mod 10) check every card number passes. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** Spaces (no-break ones too) and dashes people type between groups of digits. */
const CARD_SEPARATORS = /[\s\u00a0\u2000-\u200a\u202f\u200e\u200f\u2066-\u2069\-\u2010-\u2015]/g;
// A control character in the holder's name (C0, DEL, C1) or a lone surrogate.
// eslint-disable-next-line no-control-regex
const UNSAFE_TEXT = /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export const CARD_HOLDER_MAX_LENGTH = 50;

/**
 * Checks the typed card. The number and the CVV take Western, Arabic-Indic and Eastern
 * Arabic-Indic digits, with spaces and dashes between groups (RULINGS 25); the expiry is MM/YY
 * (also MMYY, MM-YY, MM / YY) and the card is good through the end of that month, on `now`.
 */
export function readCard(input: CardInput, now: number): { ok: true; card: Card } | { ok: false; errors: Partial<Record<CardField, CardError>> } {
  const errors: Partial<Record<CardField, CardError>> = {};
  const number = toWesternDigits(input.card_number).replace(CARD_SEPARATORS, '');
  if (number === '') errors.card_number = 'required';
  else if (!/^\d{13,19}$/.test(number)) errors.card_number = 'card_number';
  else if (!luhnValid(number)) errors.card_number = 'card_checksum';

  const expiry = toWesternDigits(input.expiry_date).replace(/\s/g, '');
  const parts = /^(\d{2})[/-]?(\d{2})$/.exec(expiry);
  const month = parts ? Number(parts[1]) : 0;
  const year = parts ? Number(parts[2]) : 0;
  if (expiry === '') errors.expiry_date = 'required';
  else if (!parts || month < 1 || month > 12) errors.expiry_date = 'expiry';
  else {
    const today = new Date(now);
    const current = (today.getUTCFullYear() % 100) * 12 + today.getUTCMonth() + 1;
    if (year * 12 + month < current) errors.expiry_date = 'expired';
  }

  const cvv = toWesternDigits(input.card_security_code).replace(CARD_SEPARATORS, '');
  if (cvv === '') errors.card_security_code = 'required';
  else if (!/^\d{3,4}$/.test(cvv)) errors.card_security_code = 'cvv';

  const holderName = input.card_holder_name.trim().replace(/\s+/g, ' ');
  if (holderName === '') errors.card_holder_name = 'required';
  // No "=" either: the name comes back signed in card_holder_name, and a name holding "key=" is
  // how a re-split is smuggled in, which Safar refuses (aps-response-contract.ts); the sandbox
  // refuses it on the form rather than sign a result its merchant must then throw away.
  else if (holderName.length > CARD_HOLDER_MAX_LENGTH || UNSAFE_TEXT.test(holderName) || holderName.includes('=')) errors.card_holder_name = 'name';

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, card: { number, month, year, holderName } };
}

/** "400555******0001": the first six and last four digits, as APS returns card_number. */
export function maskCardNumber(number: string): string {
  return `${number.slice(0, 6)}${'*'.repeat(Math.max(0, number.length - 10))}${number.slice(-4)}`;
}

/** APS's payment_option for a card number, by its leading digits. */
export function paymentOption(number: string): 'VISA' | 'MASTERCARD' | 'AMEX' {
  if (number.startsWith('4')) return 'VISA';
  if (/^3[47]/.test(number)) return 'AMEX';
  return 'MASTERCARD';
}

/** What the customer did on the card page. */
export type CardOutcome = { action: 'cancel' } | { action: 'pay'; card: Card };

/** The transaction's own values, drawn by the caller (random in the routes, fixed in tests). */
export interface TransactionIds {
  /** APS's transaction id: 18 digits. */
  fortId: string;
  /** The acquirer's approval code of a successful purchase: 6 digits. */
  authorizationCode: string;
  customerIp: string;
}

/** A new fort_id: 18 random digits, never starting with 0. */
export function newFortId(): string {
  return `${randomInt(1, 10)}${Array.from({ length: 17 }, () => randomInt(0, 10)).join('')}`;
}

/** A new authorization code: 6 random digits. */
export const newAuthorizationCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/**
 * The signed response to an accepted request: success for the test card, a decline for any
 * other valid card, the user's cancel (no fort_id: no transaction was made). It carries what APS
 * returns: the request's fields, the transaction's, and status / response_code / response_message.
 */
export function purchaseResponse(request: FormFields, outcome: CardOutcome, ids: TransactionIds, merchant: SandboxMerchant): FormFields {
  const base = echoed(request);
  if (outcome.action === 'cancel') {
    return signResponse({ ...base, customer_ip: ids.customerIp, response_code: '00072', response_message: 'Transaction canceled by user', status: '00' }, merchant);
  }
  const { card } = outcome;
  const success = card.number === SUCCESS_CARD;
  return signResponse(
    {
      ...base,
      fort_id: ids.fortId,
      payment_option: paymentOption(card.number),
      eci: 'ECOMMERCE',
      ...(success ? { authorization_code: ids.authorizationCode } : {}),
      card_number: maskCardNumber(card.number),
      expiry_date: `${String(card.year).padStart(2, '0')}${String(card.month).padStart(2, '0')}`,
      customer_ip: ids.customerIp,
      card_holder_name: card.holderName,
      response_code: success ? '14000' : '13666',
      response_message: success ? 'Success' : 'Transaction declined',
      status: success ? '14' : '13',
    },
    merchant,
  );
}

/**
 * The amount of a request for people: minor units to "USD 147.63", with the currency's own
 * number of decimals (JOD and KWD have 3, JPY none).
 */
export function formatMinorUnits(amount: string, currency: string): string {
  try {
    const format = new Intl.NumberFormat('en-US', { style: 'currency', currency, currencyDisplay: 'code' });
    const decimals = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(Number(amount) / 10 ** decimals).replace(/\u00a0/g, ' ');
  } catch {
    return `${currency} ${amount}`;
  }
}
