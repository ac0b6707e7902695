import type { Language } from '../../contract/endpoint';
import { message, type MessageKey } from '../http/messages';
import { hiddenInputs, pageShellHtml } from './page-shell';
import { CARD_HOLDER_MAX_LENGTH, formatMinorUnits, SUCCESS_CARD, type CardError, type CardField, type FormFields } from './sandbox-gateway';
import { escapeHtml } from '../http/html';

/**
 * The pages of the embedded APS sandbox gateway (RULINGS 20). Each says at the top, in its title
 * and in a banner, that it is the Safar sandbox and charges no card, so nobody mistakes it for a
 * real payment page. No inline script: the return page is submitted by /sandbox/aps/return.js.
 */

/** Where the sandbox's pages and script live (mounted only when APS_GATEWAY_URL is empty). */
export const SANDBOX_BASE = '/sandbox/aps';
export const SANDBOX_PAY_PATH = `${SANDBOX_BASE}/pay`;
export const SANDBOX_RETURN_SCRIPT_PATH = `${SANDBOX_BASE}/return.js`;
/** Prefix of the hidden request fields the card form carries back (kept apart from the card's own). */
export const REQUEST_FIELD_PREFIX = 'request.';
/** The id of the return page's form, which return.js submits. */
export const RETURN_FORM_ID = 'aps-return';

/** The script of the return page: posts the signed answer to the merchant as soon as it loads. */
export const RETURN_SCRIPT = `(function () {
  var form = document.getElementById('${RETURN_FORM_ID}');
  if (form) form.submit();
})();
`;

export const sandboxLanguage = (fields: FormFields): Language => (fields.language === 'ar' ? 'ar' : 'en');

const text = (key: MessageKey, lang: Language) => escapeHtml(message(key, lang));
const ltr = (value: string) => `<bdi class="ltr">${escapeHtml(value)}</bdi>`;
const groupedCard = SUCCESS_CARD.replace(/(\d{4})(?=\d)/g, '$1 ');

function banner(lang: Language, withTestCard: boolean): string {
  const card = withTestCard ? `<br>${text('sandbox_test_card', lang).replace('{card}', ltr(groupedCard))}` : '';
  return `<div class="notice" role="note"><strong>${text('sandbox_banner_title', lang)}</strong>${text('sandbox_banner_text', lang)}${card}</div>`;
}

const header = (lang: Language) => `<span class="name">${text('sandbox_title', lang)}</span>`;

function page(lang: Language, heading: MessageKey, main: string, scripts: string[] = []): string {
  return pageShellHtml({ lang, title: `${message(heading, lang)} · ${message('sandbox_title', lang)}`, header: header(lang), main, scripts, sandbox: true });
}

const CARD_ERROR_MESSAGES: Record<CardError, MessageKey> = {
  required: 'sandbox_error_required',
  card_number: 'sandbox_error_card_number',
  card_checksum: 'sandbox_error_card_checksum',
  expiry: 'sandbox_error_expiry',
  expired: 'sandbox_error_expired',
  cvv: 'sandbox_error_cvv',
  name: 'sandbox_error_name',
};

interface FieldSpec {
  name: CardField;
  label: MessageKey;
  attributes: string;
}

const FIELD_SPECS: Record<CardField, FieldSpec> = {
  card_number: { name: 'card_number', label: 'sandbox_card_number', attributes: 'inputmode="numeric" autocomplete="cc-number" maxlength="40" class="ltr" dir="ltr"' },
  expiry_date: { name: 'expiry_date', label: 'sandbox_expiry', attributes: 'inputmode="numeric" autocomplete="cc-exp" maxlength="10" placeholder="MM/YY" class="ltr" dir="ltr"' },
  card_security_code: { name: 'card_security_code', label: 'sandbox_cvv', attributes: 'inputmode="numeric" autocomplete="cc-csc" maxlength="8" class="ltr" dir="ltr"' },
  card_holder_name: { name: 'card_holder_name', label: 'sandbox_card_holder', attributes: `autocomplete="cc-name" maxlength="${CARD_HOLDER_MAX_LENGTH * 2}"` },
};

function field(spec: FieldSpec, lang: Language, value: string, error: CardError | undefined): string {
  const id = `f-${spec.name}`;
  const errorId = `${id}-error`;
  const invalid = error ? ` aria-invalid="true" aria-describedby="${errorId}"` : '';
  const errorText = error ? `<p class="error" id="${errorId}">${text(CARD_ERROR_MESSAGES[error], lang)}</p>` : '';
  return `<div class="field"><label for="${id}">${text(spec.label, lang)}</label><input type="text" id="${id}" name="${spec.name}" value="${escapeHtml(value)}" required ${spec.attributes}${invalid}>${errorText}</div>`;
}

export interface CardPageView {
  /** The accepted request's fields, signature included: carried back in hidden inputs. */
  request: FormFields;
  /** What was typed, shown again after an error; the CVV never is. */
  values?: Partial<Record<CardField, string>>;
  errors?: Partial<Record<CardField, CardError>>;
}

/** The card page: banner with the test card, the merchant's reference and amount, the card form. */
export function cardPageHtml({ request, values = {}, errors = {} }: CardPageView): string {
  const lang = sandboxLanguage(request);
  const amount = formatMinorUnits(request.amount ?? '', request.currency ?? '');
  const carried = Object.fromEntries(Object.entries(request).map(([name, value]) => [`${REQUEST_FIELD_PREFIX}${name}`, value]));
  const hasErrors = Object.keys(errors).length > 0;
  const input = (name: CardField) => field(FIELD_SPECS[name], lang, name === 'card_security_code' ? '' : (values[name] ?? ''), errors[name]);
  const main = `
${banner(lang, true)}
<h1>${text('sandbox_card_heading', lang)}</h1>
<dl>
<dt>${text('sandbox_merchant_reference', lang)}</dt><dd>${ltr(request.merchant_reference ?? '')}</dd>
<dt>${text('sandbox_amount', lang)}</dt><dd>${ltr(amount)}</dd>
</dl>
${hasErrors ? `<p class="error" role="alert">${text('sandbox_errors_summary', lang)}</p>` : ''}
<form method="post" action="${SANDBOX_PAY_PATH}">
${hiddenInputs(carried)}
${input('card_number')}
<div class="row">${input('expiry_date')}${input('card_security_code')}</div>
${input('card_holder_name')}
<div class="actions">
<button type="submit" name="action" value="pay" class="primary">${text('sandbox_pay', lang).replace('{amount}', ltr(amount))}</button>
<button type="submit" name="action" value="cancel" class="secondary" formnovalidate>${text('sandbox_cancel', lang)}</button>
</div>
</form>`;
  return page(lang, 'sandbox_card_heading', main);
}

const OUTCOME_HEADINGS: Record<string, MessageKey> = {
  '14': 'sandbox_return_success',
  '13': 'sandbox_return_declined',
};

/**
 * The answer page: the signed response in a form posted to the merchant's return_url, submitted
 * on load by the external return.js, with a visible button for a browser that runs no script.
 */
export function returnPageHtml({ lang, returnUrl, response }: { lang: Language; returnUrl: string; response: FormFields }): string {
  const heading: MessageKey =
    OUTCOME_HEADINGS[response.status ?? ''] ?? (response.response_code === '00072' ? 'sandbox_return_cancelled' : 'sandbox_return_refused');
  const main = `
${banner(lang, false)}
<h1>${text(heading, lang)}</h1>
<dl>
<dt>${text('sandbox_merchant_reference', lang)}</dt><dd>${ltr(response.merchant_reference ?? '')}</dd>
<dt>${text('sandbox_response', lang)}</dt><dd>${ltr(`${response.response_code ?? ''} ${response.response_message ?? ''}`)}</dd>
</dl>
<p>${text('sandbox_return_text', lang)}</p>
<form id="${RETURN_FORM_ID}" method="post" action="${escapeHtml(returnUrl)}">
${hiddenInputs(response)}
<div class="actions single"><button type="submit" class="primary">${text('sandbox_return_button', lang)}</button></div>
</form>`;
  return page(lang, heading, main, [SANDBOX_RETURN_SCRIPT_PATH]);
}

/** A request the sandbox cannot answer to a merchant (no return_url, unknown merchant, a GET). */
export function sandboxErrorPageHtml({ lang, reason }: { lang: Language; reason: 'sandbox_no_return_url_text' | 'sandbox_unknown_merchant_text' | 'sandbox_post_only_text' }): string {
  const main = `
${banner(lang, false)}
<h1>${text('sandbox_bad_request', lang)}</h1>
<p>${text(reason, lang)}</p>`;
  return page(lang, 'sandbox_bad_request', main);
}
