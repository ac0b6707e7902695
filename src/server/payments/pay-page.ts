import type { Language } from '../../contract/endpoint';
import { message, type MessageKey } from '../http/messages';
import { formatDollars, formatIsoDay, hiddenInputs, ltrHtml as ltr, pageShellHtml, RELOAD_WHEN_RESTORED, safarHeader, unbrokenLtrHtml } from './page-shell';
import type { PaymentDetails } from './payment-form';
import { escapeHtml } from '../http/html';

/**
 * The HTML of the payments page /pay/<merchant reference> (RULINGS 19), pure so that its
 * escaping is tested on its own. Every value from the database goes through escapeHtml; the
 * lead's uuid is not among them (the page is reached with the reference only, RULINGS 24).
 */

/** The payments page's one script, a file of this origin (CSP script-src 'self'), on every /pay page. */
export const PAY_PAGE_SCRIPT_PATH = '/pay/scripts/pay-page.js';
/** The id of the Pay form, which the script lets submit once. */
export const PAY_FORM_ID = 'pay-form';

/**
 * The script of every /pay page (issue 33 item 3). A page the browser restores from its
 * back/forward cache is reloaded (page-shell.ts), so Back never shows a Pay button the order no
 * longer has. And the Pay form is posted once: the gateway, as APS does, takes one PURCHASE per
 * merchant reference and refuses any other, so a double click, whose second post is the one the
 * browser shows, would land the customer on that refusal instead of the card page. Without
 * script the form still posts as usual.
 */
export const PAY_PAGE_SCRIPT = `${RELOAD_WHEN_RESTORED}(function () {
  var form = document.getElementById('${PAY_FORM_ID}');
  if (!form) return;
  var sent = false;
  form.addEventListener('submit', function (event) {
    if (sent) event.preventDefault();
    sent = true;
  });
})();
`;

/** A pending order: its facts and the Pay button, a form posted to the gateway. */
export interface PayFormView {
  lang: Language;
  details: PaymentDetails;
  form: { url: string; fields: Record<string, string> };
  /** The embedded sandbox gateway: the page says that no card is charged. */
  sandbox: boolean;
}

/** Any other state: a heading, a sentence and, when known, the amount and reference. */
export interface PayMessageView {
  lang: Language;
  title: MessageKey;
  text: MessageKey;
  facts?: [label: MessageKey, value: string][];
  /**
   * A link that helps next: the policy certificate of a paid trip, or the checkout of a trip whose
   * attempt failed or lapsed (a retry is a new order, from there). A path of this site, its text,
   * and its test id.
   */
  link?: { href: string; label: MessageKey; testId: string };
}

function factsList(lang: Language, facts: [MessageKey, string][]): string {
  if (facts.length === 0) return '';
  return `<dl>${facts.map(([label, value]) => `<dt>${escapeHtml(message(label, lang))}</dt><dd>${unbrokenLtrHtml(value)}</dd>`).join('')}</dl>`;
}

const homeLink = (lang: Language) => `<p><a href="/?lang=${lang}">${escapeHtml(message('pay_home', lang))}</a></p>`;

const title = (lang: Language, key: MessageKey) => `${message(key, lang)} · ${message('pay_title', lang)}`;

/** The page of a pending order: what is bought, for whom, when, its price lines to the cent, the total, and Pay. */
export function payFormPageHtml({ lang, details, form, sandbox }: PayFormView): string {
  const amount = formatDollars(details.totalCents);
  const plan = details.coverage && details.coverage !== details.plan ? `${details.plan} · ${details.coverage}` : details.plan;
  const dates = `${formatIsoDay(details.startDate, lang)} – ${formatIsoDay(details.endDate, lang)}`;
  const travellers = `<ul>${details.travellers.map((name) => `<li>${ltr(name)}</li>`).join('')}</ul>`;
  const main = `
<h1>${escapeHtml(message('pay_heading', lang))}</h1>
<p>${escapeHtml(message('pay_intro', lang))}</p>
<dl>
<dt>${escapeHtml(message('pay_insurer', lang))}</dt><dd>${escapeHtml(details.insurer)}</dd>
<dt>${escapeHtml(message('pay_plan', lang))}</dt><dd>${escapeHtml(plan)}</dd>
<dt>${escapeHtml(message('pay_travellers', lang))}</dt><dd>${travellers}</dd>
<dt>${escapeHtml(message('pay_trip_dates', lang))}</dt><dd>${escapeHtml(dates)}</dd>
<dt>${escapeHtml(message('pay_reference', lang))}</dt><dd>${unbrokenLtrHtml(details.reference)}</dd>
</dl>
<h2>${escapeHtml(message('pay_price_summary', lang))}</h2>
<table class="lines" data-testid="pay-lines">
${details.lines
  .filter((line) => line.kind !== 'total')
  .map((line) => `<tr data-kind="${line.kind}"><th scope="row">${escapeHtml(line.label)}</th><td>${ltr(`${line.kind === 'discount' ? '\u2212' : ''}${formatDollars(line.cents)}`)}</td></tr>`)
  .join('\n')}
</table>
<div class="total"><span>${escapeHtml(message('pay_amount', lang))}</span><strong>${ltr(amount)}</strong></div>
<form id="${PAY_FORM_ID}" method="post" action="${escapeHtml(form.url)}">
${hiddenInputs(form.fields)}
<button type="submit" class="primary">${escapeHtml(message('pay_button', lang)).replace('{amount}', ltr(amount))}</button>
</form>
<p class="muted">${escapeHtml(message('pay_processor_note', lang))}</p>
${sandbox ? `<p class="notice">${escapeHtml(message('pay_sandbox_note', lang))}</p>` : ''}
${homeLink(lang)}`;
  return pageShellHtml({ lang, title: title(lang, 'pay_heading'), header: safarHeader(), main, scripts: [PAY_PAGE_SCRIPT_PATH] });
}

/** A page without a form: paid, failed, expired, not found, or payments unavailable. */
export function payMessagePageHtml({ lang, title: heading, text, facts = [], link }: PayMessageView): string {
  const next = link ? `<p><a href="${escapeHtml(link.href)}" data-testid="${escapeHtml(link.testId)}">${escapeHtml(message(link.label, lang))}</a></p>` : '';
  const main = `
<h1>${escapeHtml(message(heading, lang))}</h1>
<p>${escapeHtml(message(text, lang))}</p>
${factsList(lang, facts)}
${next}
${homeLink(lang)}`;
  // The script here too: a page restored from the back/forward cache may say "failed" of an order paid since.
  return pageShellHtml({ lang, title: title(lang, heading), header: safarHeader(), main, scripts: [PAY_PAGE_SCRIPT_PATH] });
}
