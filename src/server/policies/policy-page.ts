import { eq } from 'drizzle-orm';
import type { Language } from '../../contract/endpoint';
import type { CancellationReason, PolicyPage } from '../../contract/policy-page.endpoints';
import { HOME_COUNTRY_ID, TRIP_TYPE, type TravelDetails } from '../../contract/travel-details.rules';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import type { OrderContract } from '../orders/order-contract.types';
import { priceLines } from '../orders/price-lines';
import { Refusal } from '../orders/refusal';
import { loadCertificateByPageToken, type CertificateData } from './certificate-data';
import { passportName } from './certificate-pdf';
import { certificatePath } from './issue-policy';
import { verifyStatus } from './verify-page';
import { coverageText } from '../quoting/quote-views';

/**
 * The customer's own policy page (issue 37 item 2, RULINGS 28), read by its page token: what was
 * bought (from the order's contract, as the certificate says it), where it stands today (the
 * verification page's status, one definition), the certificate in both languages, the customer's
 * cancellation request, and "buy again". Passport numbers and the e-mail are masked: the page is
 * opened from a mail that may be forwarded and on screens others see.
 */

type CancellationRow = typeof t.cancellationRequests.$inferSelect;

/** Everything the page is drawn from. */
export interface PolicyPageRecord {
  data: CertificateData;
  contract: OrderContract;
  /** The phone of the lead the order was paid for: the contract froze the name and e-mail only. */
  phone: { code: string; number: string };
  request: CancellationRow | null;
}

/** "••••••123": all but the last 3 characters hidden; a number of 3 characters or fewer wholly. */
export function maskPassport(passport: string): string {
  const shown = passport.length > 3 ? passport.slice(-3) : '';
  return '•'.repeat(passport.length - shown.length) + shown;
}

/** "ra•••@example.com": the first two characters of the mailbox (one of a short one), then the domain. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return '•••';
  const local = email.slice(0, at);
  const kept = local.length > 2 ? local.slice(0, 2) : local.slice(0, 1);
  return `${kept}•••${email.slice(at)}`;
}

/** The policy behind a page token (already checked for shape), with its contract, phone and request; null when none has it. */
export async function findPolicyPage(db: Db, token: string): Promise<PolicyPageRecord | null> {
  const data = await loadCertificateByPageToken(db, token);
  if (!data) return null;
  const [row] = await db
    .select({ contract: t.orders.contract, code: t.leads.phoneCountryCode, number: t.leads.phoneNumber })
    .from(t.policies)
    .innerJoin(t.orders, eq(t.orders.id, t.policies.orderId))
    .innerJoin(t.leads, eq(t.leads.id, t.orders.leadId))
    .where(eq(t.policies.id, data.policyId));
  if (!row?.contract) return null;
  const [request] = await db.select().from(t.cancellationRequests).where(eq(t.cancellationRequests.policyId, data.policyId));
  return { data, contract: row.contract, phone: { code: row.code, number: row.number }, request: request ?? null };
}

/**
 * The travel details of a policy with the dates left empty, as the travel details form holds a
 * saved lead (machines/travel-details valuesFromLead): Lebanon on the fixed side of the trip
 * (RULINGS 4), the travellers new (no ids), each with their date of birth, names and relationship.
 */
export function buyAgainDetails(contract: OrderContract, phone: PolicyPageRecord['phone']): TravelDetails {
  const outbound = contract.trip.direction === 'outbound';
  return {
    name: contract.customer.name,
    email: contract.customer.email,
    phone_country_code: phone.code,
    phone_number: phone.number,
    inbound_outbound: outbound,
    trip_type: contract.trip.tripType === TRIP_TYPE.annual ? TRIP_TYPE.annual : TRIP_TYPE.single,
    start_date: null,
    end_date: null,
    destination_id: outbound ? contract.trip.destinations.map((country) => country.id).filter((id) => id !== HOME_COUNTRY_ID) : [HOME_COUNTRY_ID],
    source_id: outbound ? HOME_COUNTRY_ID : contract.trip.source.id,
    no_of_traveller: contract.travellers.length,
    is_family: contract.trip.isFamily,
    travellers_info: contract.travellers.map((traveller) => ({
      id: null,
      dob: traveller.dob,
      first_name: traveller.firstName,
      middle_name: traveller.middleName,
      last_name: traveller.lastName,
      relationship_type_id: traveller.relationshipTypeId,
    })),
  };
}

/** Whether the customer may still ask to cancel: the policy has not started, is not cancelled, and nothing was asked yet. */
export function canRequestCancellation(record: Pick<PolicyPageRecord, 'data' | 'request'>, now: number): boolean {
  return record.request === null && verifyStatus(record.data, now) === 'not_started';
}

/** The page in `lang` at `now` (the app's clock), as policyPageSchema. */
export function policyPageView(record: PolicyPageRecord, lang: Language, now: number): PolicyPage {
  const { data, contract, request } = record;
  const ar = lang === 'ar';
  const lines = priceLines(contract, lang);
  const certificate = certificatePath(data.downloadToken);
  return {
    policy_number: data.policyNumber,
    status: verifyStatus(data, now),
    issued_at: data.issuedAt.toISOString(),
    insurer: { name: ar ? data.insurer.nameAr : data.insurer.nameEn, assistance_phone: data.insurer.assistancePhone },
    plan: {
      name: ar ? data.plan.nameAr : data.plan.nameEn,
      coverage: ar ? coverageText(data.plan.coverageAr, lang) : data.plan.coverageEn,
      family: data.plan.family,
      medical_limit_usd: data.plan.medicalLimitUsd,
      schengen_visa_compliant: data.plan.schengenVisaCompliant,
    },
    addons: data.addons.map((addon) => ({ code: addon.code, name: ar ? addon.nameAr : addon.nameEn, limit_usd: addon.limitUsd })),
    trip: {
      trip_type: data.trip.tripType,
      start_date: data.trip.startDate,
      end_date: data.trip.endDate,
      days: data.trip.days,
      direction: data.trip.direction,
      destinations: ar ? data.trip.destinationsAr : data.trip.destinations,
      source: ar ? contract.trip.source.nameAr : contract.trip.source.nameEn,
    },
    travellers: data.travellers.map((traveller) => ({
      name: passportName(traveller),
      dob: traveller.dob,
      passport: traveller.passport ? maskPassport(traveller.passport) : null,
    })),
    receipt: {
      plan_cents: contract.price.planCents,
      addons: lines.filter((line) => line.kind === 'addon').map((line) => ({ name: line.label, cents: line.cents })),
      discount_cents: contract.price.discountCents,
      coupon_code: contract.price.couponCode,
      vat_percent: contract.price.vatPercent,
      vat_cents: contract.price.vatCents,
      stamp_cents: contract.price.stampCents,
      total_cents: contract.price.totalCents,
      merchant_reference: data.order.merchantReference,
    },
    certificate: { en: certificate, ar: `${certificate}?lang=ar` },
    email: maskEmail(data.email),
    can_request_cancellation: canRequestCancellation(record, now),
    cancellation_request: request
      ? { reason: request.reason as CancellationReason, note: request.note, status: request.status as 'open' | 'done' | 'declined', created_at: request.createdAt.toISOString() }
      : null,
    buy_again: buyAgainDetails(contract, record.phone),
  };
}

/**
 * Records the customer's cancellation request for the policy behind `token` (issue 37 item 2):
 * false when no policy has the token; a Refusal 409 `cancellation_not_allowed` when the policy has
 * started or is cancelled, or a request exists already. The policy's row is locked first, as the
 * broker's cancellation locks it (cancel-policy.ts), so a request is either seen by that
 * cancellation (and done with it) or refused for the cancelled policy; of requests at once, the
 * unique policy_id takes one and the others are refused (never a 5xx).
 */
export async function requestCancellation(db: Db, token: string, request: { reason: CancellationReason; note: string }, now: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [policy] = await tx.select({ id: t.policies.id }).from(t.policies).where(eq(t.policies.pageToken, token)).for('update');
    const data = policy ? await loadCertificateByPageToken(tx, token) : null;
    if (!policy || !data) return false;
    const refused = new Refusal(409, 'cancellation_not_allowed', { token: 'cancellation_not_allowed' });
    if (verifyStatus(data, now) !== 'not_started') throw refused;
    const [inserted] = await tx
      .insert(t.cancellationRequests)
      .values({ policyId: policy.id, reason: request.reason, note: request.note, status: 'open', createdAt: new Date(now) })
      .onConflictDoNothing({ target: t.cancellationRequests.policyId })
      .returning({ id: t.cancellationRequests.id });
    if (!inserted) throw refused;
    return true;
  });
}
