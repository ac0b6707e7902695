import type { Language } from '../../contract/endpoint';
import { message, type MessageKey } from '../http/messages';
import { hiddenInputs, ltrHtml as ltr, pageShellHtml, RELOAD_WHEN_RESTORED, unbrokenLtrHtml } from './page-shell';
import { CARD_HOLDER_MAX_LENGTH, formatMinorUnits, SUCCESS_CARD, type CardError, type CardField, type FormFields } from './sandbox-gateway';
import { escapeHtml } from '../http/html';
import { BACKGROUND_POST_HEADER, NEXT_LOCATION_HEADER } from './see-other';

/**
 * The pages of the embedded APS sandbox gateway (RULINGS 20). Each says at the top, in its title
 * and in a banner, that it is the Safar sandbox and charges no card, so nobody mistakes it for a
 * real payment page. No inline script: the return page is submitted by /sandbox/aps/return.js.
 */

/** Where the sandbox's pages and script live (mounted only when APS_GATEWAY_URL is empty). */
export const SANDBOX_BASE = '/sandbox/aps';
export const SANDBOX_PAY_PATH = `${SANDBOX_BASE}/pay`;
export const SANDBOX_RETURN_SCRIPT_PATH = `${SANDBOX_BASE}/return.js`;
/** The page of one payment session (a GET; its card form posts back to the same address). */
export const sandboxSessionPath = (id: string) => `${SANDBOX_PAY_PATH}/${encodeURIComponent(id)}`;
/** The id of the return page's form, which return.js submits. */
export const RETURN_FORM_ID = 'aps-return';
/** The card page's script, and the id of the form it posts. */
export const SANDBOX_CARD_SCRIPT_PATH = `${SANDBOX_BASE}/card.js`;
export const CARD_FORM_ID = 'aps-card';
/** The id of the card page's error summary, which takes focus when the page shows errors. */
const CARD_ERRORS_ID = 'card-errors';

/**
 * The script of the card page (issue 17 item 9): a form post always adds a history entry, so
 * the card form is posted in the background and the page replaced by where the sandbox sends
 * it (the same session's GET: the card page again with its errors, or the answer), which the
 * answer names without the page being fetched for nothing first (see-other.ts). So the
 * history keeps one entry for the whole session, which the answer then replaces with the
 * merchant's page. Without script, or when the post fails, the form is submitted as usual,
 * with the button that was pressed. A card page restored from the back/forward cache is reloaded
 * (issue 33 item 3): its session may have been answered since, and the server then shows that.
 */
export const CARD_SCRIPT = `${RELOAD_WHEN_RESTORED}(function () {
  var form = document.getElementById('${CARD_FORM_ID}');
  if (!form || !window.fetch || !window.FormData || !window.URLSearchParams) return;
  form.addEventListener('submit', function (event) {
    var target = new URL(form.getAttribute('action') || '', location.href);
    if (target.origin !== location.origin) return;
    event.preventDefault();
    var button = event.submitter;
    var data = new FormData(form);
    if (button && button.name) data.append(button.name, button.value);
    var submit = function () {
      if (button && button.name) {
        var pressed = document.createElement('input');
        pressed.type = 'hidden';
        pressed.name = button.name;
        pressed.value = button.value;
        form.appendChild(pressed);
      }
      form.submit();
    };
    var buttons = form.querySelectorAll('button');
    for (var i = 0; i < buttons.length; i += 1) buttons[i].disabled = true;
    fetch(target.href, { method: 'POST', body: new URLSearchParams(data), credentials: 'same-origin', headers: { '${BACKGROUND_POST_HEADER}': '1' } })
      .then(function (res) {
        var next = res.status === 204 ? res.headers.get('${NEXT_LOCATION_HEADER}') : null;
        if (next && new URL(next, location.href).origin === location.origin) location.replace(next);
        else submit();
      })
      .catch(submit);
  });
})();
`;

/**
 * The script of the return page: hands the signed answer to the merchant as soon as it loads,
 * without leaving itself in the browser's history (issue 17 item 9). A return_url of this
 * origin (the embedded sandbox beside its merchant) is posted in the background, and the page
 * is then replaced by where the merchant sends the browser (named in its answer, see-other.ts),
 * so Back from there skips the gateway; any other return_url, or a failed post, gets the form
 * submitted. Reached again by Back or Forward, it posts nothing by itself: the button is there.
 * Unlike the card page, it is not reloaded when restored from the back/forward cache: a session
 * is answered once, so the restored page is what the server would send, and a reload would post
 * the answer again by itself.
 */
export const RETURN_SCRIPT = `(function () {
  var form = document.getElementById('${RETURN_FORM_ID}');
  if (!form) return;
  var navigation = window.performance && performance.getEntriesByType ? performance.getEntriesByType('navigation')[0] : null;
  if (navigation && navigation.type === 'back_forward') return;
  var submit = function () { form.submit(); };
  // getAttribute: a field named "action" would shadow form.action.
  var target = new URL(form.getAttribute('action') || '', location.href);
  if (!window.fetch || target.origin !== location.origin) return submit();
  fetch(target.href, { method: 'POST', body: new URLSearchParams(new FormData(form)), credentials: 'same-origin', headers: { '${BACKGROUND_POST_HEADER}': '1' } })
    .then(function (res) {
      var next = res.status === 204 ? res.headers.get('${NEXT_LOCATION_HEADER}') : null;
      if (next && new URL(next, location.href).origin === location.origin) location.replace(next);
      else submit();
    })
    .catch(submit);
})();
`;

export const sandboxLanguage = (fields: FormFields): Language => (fields.language === 'ar' ? 'ar' : 'en');

const text = (key: MessageKey, lang: Language) => escapeHtml(message(key, lang));
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
  /** A hint in the field, in the page's language (the expiry's format: MM/YY, شهر/سنة). */
  placeholder?: MessageKey;
}

const FIELD_SPECS: Record<CardField, FieldSpec> = {
  card_number: { name: 'card_number', label: 'sandbox_card_number', attributes: 'inputmode="numeric" autocomplete="cc-number" maxlength="40" class="ltr" dir="ltr"' },
  expiry_date: { name: 'expiry_date', label: 'sandbox_expiry', attributes: 'inputmode="numeric" autocomplete="cc-exp" maxlength="10" class="ltr" dir="ltr"', placeholder: 'sandbox_expiry_placeholder' },
  card_security_code: { name: 'card_security_code', label: 'sandbox_cvv', attributes: 'inputmode="numeric" autocomplete="cc-csc" maxlength="8" class="ltr" dir="ltr"' },
  card_holder_name: { name: 'card_holder_name', label: 'sandbox_card_holder', attributes: `autocomplete="cc-name" maxlength="${CARD_HOLDER_MAX_LENGTH * 2}"` },
};

const fieldId = (name: CardField) => `f-${name}`;

function field(spec: FieldSpec, lang: Language, value: string, error: CardError | undefined): string {
  const id = fieldId(spec.name);
  const errorId = `${id}-error`;
  const invalid = error ? ` aria-invalid="true" aria-describedby="${errorId}"` : '';
  const errorText = error ? `<p class="error" id="${errorId}">${text(CARD_ERROR_MESSAGES[error], lang)}</p>` : '';
  const placeholder = spec.placeholder ? ` placeholder="${text(spec.placeholder, lang)}"` : '';
  return `<div class="field"><label for="${id}">${text(spec.label, lang)}</label><input type="text" id="${id}" name="${spec.name}" value="${escapeHtml(value)}" required ${spec.attributes}${placeholder}${invalid}>${errorText}</div>`;
}

export interface CardPageView {
  /** The accepted request's fields (kept by the sandbox under the session id). */
  request: FormFields;
  /** Where the card form posts: the session's own address (sandboxSessionPath). */
  action: string;
  /** What was typed, shown again after an error; the CVV never is. */
  values?: Partial<Record<CardField, string>>;
  errors?: Partial<Record<CardField, CardError>>;
}

/** The order in which the card form asks for its fields, and its error summary lists them. */
const CARD_FIELDS: CardField[] = ['card_number', 'expiry_date', 'card_security_code', 'card_holder_name'];

/**
 * The summary of a refused card form (WCAG 3.3.1, 2.4.3): each error a link to its field, named
 * by the field's label (following a link focuses its input, the link's target), and the summary
 * focused when the page loads (autofocus: the page runs no inline script), so keyboard and
 * screen-reader users start on it rather than at the top.
 */
function errorSummary(lang: Language, errors: Partial<Record<CardField, CardError>>): string {
  const items = CARD_FIELDS.flatMap((name) => {
    const error = errors[name];
    return error ? [`<li><a href="#${fieldId(name)}">${text(FIELD_SPECS[name].label, lang)}: ${text(CARD_ERROR_MESSAGES[error], lang)}</a></li>`] : [];
  });
  if (items.length === 0) return '';
  const titleId = `${CARD_ERRORS_ID}-title`;
  return `<div class="error-summary" id="${CARD_ERRORS_ID}" role="alert" tabindex="-1" autofocus aria-labelledby="${titleId}"><h2 id="${titleId}">${text('sandbox_errors_summary', lang)}</h2><ul>${items.join('')}</ul></div>`;
}

/**
 * The card page: banner with the test card, the merchant's reference and amount, the card form.
 * The form is `novalidate`: the browser's own "Please fill out this field." comes in the browser's
 * language and before the page's message, so the sandbox checks every field itself (as APS does)
 * and answers in the page's language; `required` stays for assistive technology.
 */
export function cardPageHtml({ request, action, values = {}, errors = {} }: CardPageView): string {
  const lang = sandboxLanguage(request);
  const amount = formatMinorUnits(request.amount ?? '', request.currency ?? '');
  const input = (name: CardField) => field(FIELD_SPECS[name], lang, name === 'card_security_code' ? '' : (values[name] ?? ''), errors[name]);
  const main = `
${banner(lang, true)}
<h1>${text('sandbox_card_heading', lang)}</h1>
<dl>
<dt>${text('sandbox_merchant_reference', lang)}</dt><dd>${unbrokenLtrHtml(request.merchant_reference ?? '')}</dd>
<dt>${text('sandbox_amount', lang)}</dt><dd>${unbrokenLtrHtml(amount)}</dd>
</dl>
${errorSummary(lang, errors)}
<form id="${CARD_FORM_ID}" method="post" action="${escapeHtml(action)}" novalidate>
${input('card_number')}
<div class="row">${input('expiry_date')}${input('card_security_code')}</div>
${input('card_holder_name')}
<div class="actions">
<button type="submit" name="action" value="pay" class="primary">${text('sandbox_pay', lang).replace('{amount}', ltr(amount))}</button>
<button type="submit" name="action" value="cancel" class="secondary">${text('sandbox_cancel', lang)}</button>
</div>
</form>`;
  return page(lang, 'sandbox_card_heading', main, [SANDBOX_CARD_SCRIPT_PATH]);
}

const OUTCOME_HEADINGS: Record<string, MessageKey> = {
  '14': 'sandbox_return_success',
  '13': 'sandbox_return_declined',
};

/** Refusals whose heading names the reason, by response_code; any other status 00 is sandbox_return_refused. */
const REFUSAL_HEADINGS: Record<string, MessageKey> = {
  '00072': 'sandbox_return_cancelled',
  '00007': 'sandbox_return_duplicate',
};

/**
 * The answer page: the signed response in a form posted to the merchant's return_url, submitted
 * on load by the external return.js, with a visible button for a browser that runs no script.
 */
export function returnPageHtml({ lang, returnUrl, response }: { lang: Language; returnUrl: string; response: FormFields }): string {
  const heading: MessageKey = OUTCOME_HEADINGS[response.status ?? ''] ?? REFUSAL_HEADINGS[response.response_code ?? ''] ?? 'sandbox_return_refused';
  // A second PURCHASE for a reference: say why no card page opened and that nothing was charged.
  const why = response.response_code === '00007' ? `<p>${text('sandbox_return_duplicate_text', lang)}</p>` : '';
  const main = `
${banner(lang, false)}
<h1>${text(heading, lang)}</h1>
${why}
<dl>
<dt>${text('sandbox_merchant_reference', lang)}</dt><dd>${unbrokenLtrHtml(response.merchant_reference ?? '')}</dd>
<dt>${text('sandbox_response', lang)}</dt><dd>${ltr(`${response.response_code ?? ''} ${response.response_message ?? ''}`)}</dd>
</dl>
<p>${text('sandbox_return_text', lang)}</p>
<form id="${RETURN_FORM_ID}" method="post" action="${escapeHtml(returnUrl)}">
${hiddenInputs(response)}
<div class="actions single"><button type="submit" class="primary">${text('sandbox_return_button', lang)}</button></div>
</form>`;
  return page(lang, heading, main, [SANDBOX_RETURN_SCRIPT_PATH]);
}

/** A request the sandbox cannot answer to a merchant (no return_url, unknown merchant, a GET, no such session). */
export function sandboxErrorPageHtml({
  lang,
  reason,
}: {
  lang: Language;
  reason: 'sandbox_no_return_url_text' | 'sandbox_unknown_merchant_text' | 'sandbox_post_only_text' | 'sandbox_session_unknown_text';
}): string {
  const main = `
${banner(lang, false)}
<h1>${text('sandbox_bad_request', lang)}</h1>
<p>${text(reason, lang)}</p>`;
  return page(lang, 'sandbox_bad_request', main);
}
