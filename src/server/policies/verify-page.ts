import { todayIso } from '../../contract/dates';
import type { Language } from '../../contract/endpoint';
import { escapeHtml } from '../http/html';
import { message, type MessageKey } from '../http/messages';
import { formatIsoDay, ltrHtml, pageShellHtml, safarHeader } from '../payments/page-shell';
import type { CertificateData } from './certificate-data';

/**
 * The public page an embassy opens from a certificate's QR code or printed code (issue 37 item
 * 4): whether the policy is valid today, not yet started, expired or cancelled, with the insurer,
 * the plan, the medical limit, the dates and destinations, and each insured person as first name,
 * last initial and year of birth. Nothing else: no contact details, no passport numbers, no price.
 */

export type VerifyStatus = 'valid' | 'not_started' | 'expired' | 'cancelled';

/** "3F9A0C71B2D4E8A6" from what was typed or scanned: any case, spaces and dashes read; null when it cannot be a code. */
export function verifyCodeOf(raw: string): string | null {
  const code = raw.replace(/[\s-]/g, '').toUpperCase();
  return /^[0-9A-F]{16}$/.test(code) ? code : null;
}

export function verifyStatus(data: Pick<CertificateData, 'cancelled' | 'trip'>, now: number): VerifyStatus {
  if (data.cancelled) return 'cancelled';
  const today = todayIso(now);
  if (today < data.trip.startDate) return 'not_started';
  if (today > data.trip.endDate) return 'expired';
  return 'valid';
}

/** "Rania H. (1988)": what the page says of an insured person. */
export const maskedTraveller = (traveller: CertificateData['travellers'][number]) => `${traveller.firstName} ${traveller.lastName.slice(0, 1)}. (${traveller.dob.slice(0, 4)})`;

const STATUS_KEYS: Record<VerifyStatus, MessageKey> = {
  valid: 'verify_valid',
  not_started: 'verify_not_started',
  expired: 'verify_expired',
  cancelled: 'verify_cancelled',
};

const pageTitle = (lang: Language) => message('verify_title', lang);

export function verifyPageHtml(data: CertificateData, lang: Language, now: number): string {
  const status = verifyStatus(data, now);
  const text = (key: MessageKey) => escapeHtml(message(key, lang));
  const destinations = (lang === 'ar' ? data.trip.destinationsAr : data.trip.destinations).join(lang === 'ar' ? '، ' : ', ');
  const main = `
<h1>${text('verify_title')}</h1>
<p class="status status-${status}" data-testid="verify-status" data-status="${status}"><strong>${text(STATUS_KEYS[status])}</strong></p>
<dl>
<dt>${text('verify_policy')}</dt><dd>${ltrHtml(data.policyNumber)}</dd>
<dt>${text('pay_insurer')}</dt><dd>${escapeHtml(lang === 'ar' ? data.insurer.nameAr : data.insurer.nameEn)}</dd>
<dt>${text('pay_plan')}</dt><dd>${escapeHtml(lang === 'ar' ? data.plan.nameAr : data.plan.nameEn)}</dd>
<dt>${text('verify_medical')}</dt><dd>${ltrHtml(`$${data.plan.medicalLimitUsd.toLocaleString('en-US')}`)}</dd>
<dt>${text('pay_trip_dates')}</dt><dd>${escapeHtml(`${formatIsoDay(data.trip.startDate, lang)} – ${formatIsoDay(data.trip.endDate, lang)}`)}</dd>
<dt>${text('verify_destinations')}</dt><dd>${escapeHtml(data.trip.direction === 'outbound' ? destinations : message('verify_to_lebanon', lang))}</dd>
<dt>${text('verify_insured')}</dt><dd><ul data-testid="verify-insured">${data.travellers.map((traveller) => `<li>${ltrHtml(maskedTraveller(traveller))}</li>`).join('')}</ul></dd>
</dl>
<p>${text('verify_note')}</p>`;
  return pageShellHtml({ lang, title: pageTitle(lang), header: safarHeader(), main });
}

/** The same page for every code that names no policy (or a malformed one): it says nothing of what was tried. */
export function verifyNotFoundHtml(lang: Language, key: 'verify_not_found_text' | 'rate_limited' = 'verify_not_found_text'): string {
  const main = `
<h1>${escapeHtml(message('verify_title', lang))}</h1>
<p data-testid="verify-status" data-status="${key === 'rate_limited' ? 'rate_limited' : 'not_found'}">${escapeHtml(message(key, lang))}</p>`;
  return pageShellHtml({ lang, title: pageTitle(lang), header: safarHeader(), main });
}
