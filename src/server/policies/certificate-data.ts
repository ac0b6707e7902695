import { eq, inArray } from 'drizzle-orm';
import type { Language } from '../../contract/endpoint';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import type { OrderContract } from '../orders/order-contract.types';
import { SCHENGEN_COUNTRY_IDS } from '../quoting/quote-engine';

/**
 * Everything a policy certificate (and the policy mail) shows, read in one place from the
 * policy and its order's contract (what was bought, frozen when the order was placed:
 * order-contract.ts), plus the broker's company information. Whatever the lead became after
 * checkout (another trip, plan or travellers), the certificate says what was paid for.
 */

export interface CertificateTraveller {
  /** As on the passport, as saved at review (Latin letters only: nameSchema). */
  firstName: string;
  middleName: string | null;
  lastName: string;
  dob: string;
  passport: string | null;
  /** English country name; null where the plan did not ask for it. */
  nationality: string | null;
}

export interface CertificateData {
  policyId: number;
  policyNumber: string;
  downloadToken: string;
  /** What the certificate's QR code and printed code open: /verify/<code> (issue 37 item 4). */
  verifyCode: string;
  issuedAt: Date;
  mailedAt: Date | null;
  /** Set once the broker cancelled the policy (cancel-policy.ts): the certificate then says CANCELLED. */
  cancelled: { at: Date; reason: string } | null;
  leadId: number;
  /** The customer as the lead held them when the order was placed: who the policy mail greets and goes to. */
  customerName: string;
  email: string;
  order: {
    merchantReference: string;
    /** The language of the checkout page: the policy mail's language. */
    lang: Language;
    totalCents: number;
    discountCents: number;
    couponCode: string | null;
  };
  quoteReference: string;
  /** The customer's own policy page, /policy/<pageToken> (issue 37 item 2); never the download token. */
  pageToken: string;
  /** assistancePhone: the insurer's 24/7 emergency line as the insurers table holds it now ('' when none is set). */
  insurer: { nameEn: string; nameAr: string; assistancePhone: string };
  /** family: a Family plan (one policy for the family: spec §5). */
  plan: { nameEn: string; nameAr: string; coverageEn: string; coverageAr: string; medicalLimitUsd: number; schengenVisaCompliant: boolean; family: boolean };
  /**
   * The add-ons bought, as the contract froze them (price-lines.ts draws the receipt from these
   * and `price`), each with the most it pays per traveller (USD; null where it has no sum).
   */
  addons: (Omit<OrderContract['addons'][number], 'limitUsd'> & { limitUsd: number | null })[];
  /** The price lines charged, integer cents: plan + add-ons − discount + VAT + stamp fee = total. */
  price: OrderContract['price'];
  trip: {
    /** 1 single trip, 2 annual multi-trip. */
    tripType: number;
    startDate: string;
    endDate: string;
    days: number;
    /** 'outbound': from Lebanon to the destinations; 'inbound': from the source country to Lebanon. */
    direction: 'outbound' | 'inbound';
    /** English names, in the order the customer chose them. */
    destinations: string[];
    /** The same in Arabic (the verification page in Arabic). */
    destinationsAr: string[];
    source: string;
    /** Whether any destination is a Schengen state. */
    toSchengenArea: boolean;
  };
  travellers: CertificateTraveller[];
  broker: { name: string; address: string; email: string; phone: string; whatsapp: string; disclaimer: string };
}

/** The certificate of the policy with this id, or null when there is none. */
export async function loadCertificateByPolicyId(db: Db, policyId: number): Promise<CertificateData | null> {
  const [policy] = await db.select().from(t.policies).where(eq(t.policies.id, policyId));
  return policy ? loadFor(db, policy) : null;
}

/** The certificate named by a download token, or null when no policy has it. */
export async function loadCertificateByToken(db: Db, token: string): Promise<CertificateData | null> {
  const [policy] = await db.select().from(t.policies).where(eq(t.policies.downloadToken, token));
  return policy ? loadFor(db, policy) : null;
}

/** The policy behind a customer's policy-page token, or null when no policy has it. */
export async function loadCertificateByPageToken(db: Db, token: string): Promise<CertificateData | null> {
  const [policy] = await db.select().from(t.policies).where(eq(t.policies.pageToken, token));
  return policy ? loadFor(db, policy) : null;
}

/** The certificate whose verification code this is (any case; spaces and dashes read), or null. */
export async function loadCertificateByVerifyCode(db: Db, code: string): Promise<CertificateData | null> {
  const [policy] = await db.select().from(t.policies).where(eq(t.policies.verifyCode, code));
  return policy ? loadFor(db, policy) : null;
}

/**
 * The Schengen statement applies to a trip to at least one Schengen state on a plan the
 * catalogue marks as meeting the visa rule (plans.schengen_visa_compliant: Schengen cover with
 * medical expenses of at least EUR 30,000, kept by the broker with the plan). A trip to Lebanon
 * needs no Schengen visa, so it never carries it.
 */
export function schengenStatementApplies(data: Pick<CertificateData, 'plan' | 'trip'>): boolean {
  return data.plan.schengenVisaCompliant && data.trip.direction === 'outbound' && data.trip.toSchengenArea;
}

async function loadFor(db: Db, policy: typeof t.policies.$inferSelect): Promise<CertificateData | null> {
  const [order] = await db.select().from(t.orders).where(eq(t.orders.id, policy.orderId));
  // A paid order always has its contract (temp-checkout, or the start-up backfill).
  if (!order?.contract) return null;
  const contract = order.contract;
  const [company] = await db.select().from(t.companyInfo).where(eq(t.companyInfo.lang, 'en'));
  const [insurerRow] = await db.select({ assistancePhone: t.insurers.assistancePhone }).from(t.insurers).where(eq(t.insurers.id, contract.insurer.id));
  // Contracts made before issue 37 did not freeze the add-ons' limits: read them from the catalogue.
  const unfrozen = contract.addons.filter((addon) => addon.limitUsd === undefined).map((addon) => addon.addonId);
  const catalogueLimits = new Map(
    unfrozen.length
      ? (await db.select({ id: t.planAddons.id, limitUsd: t.planAddons.limitUsd }).from(t.planAddons).where(inArray(t.planAddons.id, unfrozen))).map((row) => [row.id, row.limitUsd])
      : [],
  );

  return {
    policyId: policy.id,
    policyNumber: policy.policyNumber,
    downloadToken: policy.downloadToken,
    verifyCode: policy.verifyCode,
    issuedAt: policy.issuedAt,
    mailedAt: policy.mailedAt,
    cancelled: policy.cancelledAt ? { at: policy.cancelledAt, reason: policy.cancelReason ?? 'other' } : null,
    leadId: order.leadId,
    customerName: contract.customer.name,
    email: contract.customer.email,
    order: {
      merchantReference: order.merchantReference,
      lang: order.lang === 'ar' ? 'ar' : 'en',
      totalCents: order.totalCents,
      discountCents: order.discountCents,
      couponCode: contract.price.couponCode,
    },
    quoteReference: contract.quoteReference,
    pageToken: policy.pageToken,
    insurer: { nameEn: contract.insurer.nameEn, nameAr: contract.insurer.nameAr, assistancePhone: insurerRow?.assistancePhone ?? '' },
    plan: {
      nameEn: contract.plan.nameEn,
      nameAr: contract.plan.nameAr,
      coverageEn: contract.plan.coverageEn,
      coverageAr: contract.plan.coverageAr,
      medicalLimitUsd: contract.plan.medicalLimitUsd,
      schengenVisaCompliant: contract.plan.schengenVisaCompliant,
      family: contract.trip.isFamily,
    },
    addons: contract.addons.map((addon) => ({ ...addon, limitUsd: addon.limitUsd === undefined ? (catalogueLimits.get(addon.addonId) ?? null) : addon.limitUsd })),
    price: contract.price,
    trip: {
      tripType: contract.trip.tripType,
      startDate: contract.trip.startDate,
      endDate: contract.trip.endDate,
      days: contract.trip.days,
      direction: contract.trip.direction,
      destinations: contract.trip.destinations.map((country) => country.nameEn),
      destinationsAr: contract.trip.destinations.map((country) => country.nameAr),
      source: contract.trip.source.nameEn,
      toSchengenArea: contract.trip.destinations.some((country) => SCHENGEN_COUNTRY_IDS.has(country.id)),
    },
    travellers: contract.travellers.map((traveller) => ({
      firstName: traveller.firstName,
      middleName: traveller.middleName,
      lastName: traveller.lastName,
      dob: traveller.dob,
      passport: traveller.passport,
      nationality: traveller.nationality?.nameEn ?? null,
    })),
    broker: {
      name: company?.name ?? 'Safar',
      address: company?.address ?? '',
      email: company?.email ?? '',
      phone: company?.tollFreeNumber ?? '',
      whatsapp: company?.whatsappNumber ?? '',
      disclaimer: company?.disclaimer ?? '',
    },
  };
}
