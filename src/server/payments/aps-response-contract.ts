import { MERCHANT_REFERENCE_PATTERN } from '../../contract/payment.endpoints';

/**
 * What an Amazon Payment Services PURCHASE response (the browser's return or the direct transaction
 * feedback) can be, checked AFTER its signature (aps-signature.ts). The signature alone is not
 * enough: APS signs phrase + k1=v1k2=v2… + phrase with no separator between pairs, so one signed
 * string can be cut into other pairs ("re-split") and still verify. This module says whether the
 * fields of a verified notice can be what the gateway decided, and what it decided. Pure.
 *
 * Why these rules stop a re-split. A re-split keeps the signed string and moves only the pair
 * boundaries inside it: every new pair is "key=value", keys in sorted order, one of each.
 * 1. Every key must be one APS sends (APS_RESPONSE_KEYS), or the notice is refused.
 * 2. No value may contain "<known key>=": machine fields have tight formats without "=", and free
 *    text (a name, a message) is refused when it holds a known key followed by "=" (no real name
 *    or message does; a re-split needs exactly that, to hide the gateway's own pairs in a value).
 * 3. So the gateway's own "status=NN" stays a status pair where it stands: it cannot sit inside a
 *    value (rule 2); it cannot be cut across a boundary, since no known key is a proper suffix of
 *    "status" ("tatus", "atus", … "s") and none ends with "status" but status itself; and its value
 *    is exactly two digits, so it cannot reach into what follows. Keys are unique, so no injected
 *    "status=14" can stand beside it: the decision's status is always the gateway's.
 * 4. The same holds for fort_id (no known key ends with "fort_id" or is a proper suffix of it, and
 *    its value is digits only), so a success always carries its own transaction id: a genuine
 *    success cut differently is at worst the same result again, never a second one.
 * 5. Seen from the attack itself: turning a refusal into a success means writing "status=14" into a
 *    field the attacker controls (an echoed request field) and letting a key that sorts after
 *    "status" swallow the gateway's tail "response_code=…response_message=…status=00". The keys
 *    after "status" are third_party_transaction_number and token_name, both tight formats without
 *    "=", so none can swallow it (the test file checks this stays true when the list grows).
 * 6. Echoed request fields must be exactly what Safar sent (and absent when it sent none), so text
 *    injected through an echo never reaches the decision, whatever its shape.
 */

/** The request fields APS takes besides those Safar sends, echoed in the response when sent. */
const OPTIONAL_REQUEST_KEYS = [
  'customer_name',
  'order_description',
  'phone_number',
  'settlement_reference',
  'merchant_extra',
  'merchant_extra1',
  'merchant_extra2',
  'merchant_extra3',
  'merchant_extra4',
  'merchant_extra5',
  'agreement_id',
  'recurring_mode',
  'recurring_transactions_count',
  'billing_stateProvince',
  'billing_provinceCode',
  'billing_street',
  'billing_street2',
  'billing_postcode',
  'billing_country',
  'billing_company',
  'billing_city',
  'shipping_stateProvince',
  'shipping_provinceCode',
  'shipping_street',
  'shipping_street2',
  'shipping_source',
  'shipping_sameAsBilling',
  'shipping_postcode',
  'shipping_country',
  'shipping_company',
  'shipping_city',
] as const;

/** The fields every APS command Safar sends starts with (a PURCHASE, a REFUND), and every answer echoes. */
export const APS_COMMAND_KEYS = ['command', 'access_code', 'merchant_identifier', 'merchant_reference', 'amount', 'currency', 'language'] as const;

/** The fields of every PURCHASE request Safar sends (purchase-fields.ts), signature aside. */
export const SENT_REQUEST_KEYS = [...APS_COMMAND_KEYS, 'customer_email'] as const;

/**
 * Every parameter APS returns for a PURCHASE, by redirection or merchant page, and in its direct
 * transaction feedback (notification). From the official SDKs of payfort (APS):
 * - payfort/payfort-dotnet-sdk `APS/APS.DotNetSDK/Commands/Responses/PurchaseResponseCommand.cs`
 *   (`BuildNotificationCommand()`: every field it reads from a PURCHASE notification), with
 *   `Commands/Responses/ResponseCommand.cs` (access_code, merchant_identifier, language,
 *   merchant_reference, fort_id, response_message, response_code, status,
 *   reconciliation_reference, processor_response_code) and `Commands/Command.cs` (signature);
 *   its feedback fixture `APS.DotNetSDK.Tests/Web/Notification/NotificationValidatorTests.cs` shows
 *   acquirer_response_code sent though never asked for, and return_url echoed URL-encoded.
 * - payfort/payfort-php-sdk `src/AmazonPaymentServices/Model/APSResponse.php` (status,
 *   response_message, 3ds_url, token_name) and `src/AmazonPaymentServices/Model/PaymentTypeAdapter.php`
 *   `buildOptionalParameters()` (the optional PURCHASE request fields, which come back as sent).
 * Left out on purpose: app_programming, app_plugin, app_plugin_version, app_ver, app_framework
 * (the .NET SDK's own request tags, which Safar never sends) and acquirer_response_description
 * (computed by that SDK, never received).
 */
export const APS_RESPONSE_KEYS = [
  // The request as sent.
  ...SENT_REQUEST_KEYS,
  'return_url',
  // Optional request fields, echoed when sent.
  ...OPTIONAL_REQUEST_KEYS,
  // The transaction, as the gateway made it.
  'fort_id',
  'customer_ip',
  'payment_option',
  'eci',
  'authorization_code',
  'card_number',
  'expiry_date',
  'card_holder_name',
  'token_name',
  'remember_me',
  '3ds_url',
  'sadad_olp',
  'knet_ref_number',
  'third_party_transaction_number',
  'installments',
  'number_of_installments',
  'plan_code',
  'issuer_code',
  'reconciliation_reference',
  'acquirer_response_code',
  'acquirer_response_message',
  'processor_response_code',
  'fraud_comment',
  // The decision.
  'response_code',
  'response_message',
  'status',
  'signature',
] as const;

export type ApsResponseKey = (typeof APS_RESPONSE_KEYS)[number];

/**
 * The request fields APS sends back exactly as they were sent, and only when they were sent
 * (never signature). The sandbox echoes this same list (sandbox-gateway.ts). return_url is not
 * here: whether APS returns it varies, so it is only held to its format.
 */
export const ECHOED_REQUEST_KEYS = [...SENT_REQUEST_KEYS, ...OPTIONAL_REQUEST_KEYS] as const satisfies readonly ApsResponseKey[];

/** APS status of a successful PURCHASE; every other status is a failure (declined, cancelled, invalid). */
export const APS_PURCHASE_SUCCESS = '14';
/** The one response code that goes with it: 14 + message 000 "Success". */
export const APS_PURCHASE_SUCCESS_CODE = '14000';

/**
 * Text a person types or the gateway words (any script: APS answers in Arabic too), up to `max`
 * characters, without control characters or lone surrogates. Rule 2 above (no "<known key>=")
 * is checked on every value besides.
 */
const freeText = (max: number) => new RegExp(`^[^\\p{Cc}\\p{Cs}]{1,${max}}$`, 'u');
/** An address, raw or URL-encoded (the .NET SDK's fixture has return_url as "http%3A%2F%2F…"). */
const URL_FORMAT = /^(?:https?:\/\/|https?%3A%2F%2F)[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]{1,2000}$/i;
const ALNUM_ID = /^[A-Za-z0-9]{1,40}$/;
const CODE = /^[A-Za-z0-9_-]{1,50}$/;
const UPPER_WORD = /^[A-Z_]{1,30}$/;

/**
 * The format of every response field. Decisive and machine fields are tight and never admit "=";
 * free text only where a person types it or the gateway words it.
 */
export const APS_RESPONSE_FORMATS: Readonly<Record<ApsResponseKey, RegExp>> = {
  command: UPPER_WORD,
  access_code: ALNUM_ID,
  merchant_identifier: ALNUM_ID,
  merchant_reference: MERCHANT_REFERENCE_PATTERN,
  // Minor units.
  amount: /^\d{1,12}$/,
  currency: /^[A-Z]{3}$/,
  language: /^(en|ar)$/,
  // The shape the sandbox accepts in a request (sandbox-gateway.ts); free text otherwise.
  customer_email: /^[^\s@<>"']{1,64}@[^\s@<>"']{1,190}\.[^\s@<>"']{2,60}$/,
  return_url: URL_FORMAT,
  customer_name: freeText(100),
  order_description: freeText(150),
  phone_number: /^[0-9+\-() ]{1,20}$/,
  settlement_reference: /^[A-Za-z0-9]{1,34}$/,
  merchant_extra: freeText(999),
  merchant_extra1: freeText(999),
  merchant_extra2: freeText(999),
  merchant_extra3: freeText(999),
  merchant_extra4: freeText(999),
  merchant_extra5: freeText(999),
  agreement_id: /^[A-Za-z0-9_.-]{1,100}$/,
  recurring_mode: UPPER_WORD,
  recurring_transactions_count: /^\d{1,4}$/,
  billing_stateProvince: freeText(100),
  billing_provinceCode: /^[A-Za-z0-9-]{1,10}$/,
  billing_street: freeText(100),
  billing_street2: freeText(100),
  billing_postcode: /^[A-Za-z0-9 -]{1,20}$/,
  billing_country: /^[A-Z]{2,3}$/,
  billing_company: freeText(100),
  billing_city: freeText(100),
  shipping_stateProvince: freeText(100),
  shipping_provinceCode: /^[A-Za-z0-9-]{1,10}$/,
  shipping_street: freeText(100),
  shipping_street2: freeText(100),
  shipping_source: /^[A-Za-z_]{1,30}$/,
  shipping_sameAsBilling: /^[A-Za-z]{1,5}$/,
  shipping_postcode: /^[A-Za-z0-9 -]{1,20}$/,
  shipping_country: /^[A-Z]{2,3}$/,
  shipping_company: freeText(100),
  shipping_city: freeText(100),
  fort_id: /^\d{1,20}$/,
  // IPv4 or IPv6 characters only (an IPv6 link-local address may carry its zone).
  customer_ip: /^[0-9A-Fa-f:.]{2,45}(?:%[A-Za-z0-9_.-]{1,15})?$/,
  payment_option: UPPER_WORD,
  eci: UPPER_WORD,
  authorization_code: /^[A-Za-z0-9]{1,20}$/,
  // Masked: "400555******0001", or all stars in some feedback.
  card_number: /^[0-9*]{8,19}$/,
  // YYMM.
  expiry_date: /^\d{4}$/,
  card_holder_name: freeText(50),
  token_name: /^[A-Za-z0-9_-]{1,100}$/,
  remember_me: /^(YES|NO)$/,
  '3ds_url': URL_FORMAT,
  sadad_olp: /^[A-Za-z0-9_.@-]{1,50}$/,
  knet_ref_number: /^[A-Za-z0-9]{1,30}$/,
  third_party_transaction_number: CODE,
  installments: UPPER_WORD,
  number_of_installments: /^\d{1,3}$/,
  plan_code: CODE,
  issuer_code: CODE,
  reconciliation_reference: ALNUM_ID,
  acquirer_response_code: /^[A-Za-z0-9]{1,10}$/,
  acquirer_response_message: freeText(200),
  processor_response_code: /^[A-Za-z0-9]{1,10}$/,
  fraud_comment: freeText(500),
  // 2-digit status + 3-digit message code.
  response_code: /^\d{5}$/,
  response_message: freeText(200),
  status: /^\d{2}$/,
  signature: /^(?:[0-9A-Fa-f]{64}|[0-9A-Fa-f]{128})$/,
};

const KNOWN_KEYS: ReadonlySet<string> = new Set(APS_RESPONSE_KEYS);
/** "<any known key>=" anywhere in a value: the mark of a re-split (rule 2 above). */
const KNOWN_KEY_ASSIGNMENT = new RegExp(`(?:${APS_RESPONSE_KEYS.map((key) => key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})=`);
const REQUIRED_KEYS = ['status', 'response_code', 'response_message'] as const;
const MAX_REPORTED_KEY_LENGTH = 40;

/** What the gateway decided, as a notice that passed every check says. */
export interface NoticeDecision {
  status: string;
  responseCode: string;
  responseMessage: string;
  /** APS's transaction id; null when no transaction was made (a refused request, a cancel). */
  fortId: string | null;
  /** status 14 with response code 14000: the purchase went through. */
  success: boolean;
}

/** Why a verified notice cannot be what the gateway decided; `keys` names the fields at fault. */
export type NoticeProblem = 'unknown_key' | 'echo_mismatch' | 'bad_format' | 'success_without_fort_id';

export type NoticeCheck = { ok: true; decision: NoticeDecision } | { ok: false; problem: NoticeProblem; keys: string[] };

/**
 * Whether the fields of a notice whose signature verified can be what APS decided, and what it
 * decided. `sent` is the PURCHASE request Safar sent for that order, without its signature; null
 * when it sent none (then nothing can match). In order: a key APS never sends → unknown_key; an
 * echoed field that is not exactly what was sent, or that was not sent at all → echo_mismatch; a
 * missing status / response_code / response_message, a value out of its format, a value holding
 * "<known key>=", a response code that does not start with its status, or status 14 with any code
 * but 14000 → bad_format; status 14 without fort_id → success_without_fort_id. `signature` itself
 * is not looked at (it was verified). Never throws.
 */
export function checkNoticeFields(fields: Record<string, string>, sent: Record<string, string> | null): NoticeCheck {
  const present = Object.keys(fields).filter((key) => key !== 'signature');
  const has = (record: Record<string, string>, key: string) => Object.hasOwn(record, key);

  const unknown = present.filter((key) => !KNOWN_KEYS.has(key));
  if (unknown.length > 0) return refuse('unknown_key', unknown.map((key) => key.slice(0, MAX_REPORTED_KEY_LENGTH)));

  if (sent === null) return refuse('echo_mismatch', ECHOED_REQUEST_KEYS.filter((key) => has(fields, key)));
  const mismatched = ECHOED_REQUEST_KEYS.filter((key) => (has(sent, key) ? !has(fields, key) || fields[key] !== sent[key] : has(fields, key)));
  if (mismatched.length > 0) return refuse('echo_mismatch', mismatched);

  const missing = REQUIRED_KEYS.filter((key) => !has(fields, key));
  if (missing.length > 0) return refuse('bad_format', missing);
  const malformed = present.filter((key) => {
    const value = fields[key]!;
    return !APS_RESPONSE_FORMATS[key as ApsResponseKey].test(value) || KNOWN_KEY_ASSIGNMENT.test(value);
  });
  if (malformed.length > 0) return refuse('bad_format', malformed);

  const status = fields.status!;
  const responseCode = fields.response_code!;
  if (!responseCode.startsWith(status)) return refuse('bad_format', ['status', 'response_code']);
  if (status === APS_PURCHASE_SUCCESS && responseCode !== APS_PURCHASE_SUCCESS_CODE) return refuse('bad_format', ['response_code']);
  const success = status === APS_PURCHASE_SUCCESS;
  const fortId = has(fields, 'fort_id') ? fields.fort_id! : null;
  if (success && fortId === null) return refuse('success_without_fort_id', ['fort_id']);
  return { ok: true, decision: { status, responseCode, responseMessage: fields.response_message!, fortId, success } };
}

function refuse(problem: NoticeProblem, keys: string[]): NoticeCheck {
  return { ok: false, problem, keys };
}
