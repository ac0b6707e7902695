import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Language } from '../../contract/endpoint';
import { tripDays } from '../../contract/dates';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { SCHENGEN_COUNTRY_IDS } from '../quoting/quote-engine';

/**
 * Everything a policy certificate (and the policy mail) shows, read in one place from the
 * policy, its order, the invoice's plan and insurer, the lead's trip and its live travellers, and
 * the broker's company information. The certificate is drawn from these rows whenever it is
 * asked for, so it never disagrees with them (schema.ts, policies).
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
  issuedAt: Date;
  mailedAt: Date | null;
  leadId: number;
  /** The lead's customer, as given at travel details: who the policy mail greets and goes to. */
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
  insurer: { nameEn: string; nameAr: string };
  plan: { nameEn: string; nameAr: string; coverageEn: string; medicalLimitUsd: number; schengenVisaCompliant: boolean };
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
  const [row] = await db
    .select({ order: t.orders, invoice: t.invoices, lead: t.leads, plan: t.plans, insurer: t.insurers, couponCode: t.coupons.code })
    .from(t.orders)
    .innerJoin(t.invoices, eq(t.invoices.id, t.orders.invoiceId))
    .innerJoin(t.leads, eq(t.leads.id, t.orders.leadId))
    .innerJoin(t.plans, eq(t.plans.id, t.invoices.planId))
    .innerJoin(t.insurers, eq(t.insurers.id, t.invoices.insurerId))
    .leftJoin(t.coupons, eq(t.coupons.id, t.orders.couponId))
    .where(eq(t.orders.id, policy.orderId));
  if (!row) return null;
  const { order, invoice, lead, plan, insurer } = row;

  const travellers = await db
    .select()
    .from(t.leadTravellers)
    .where(and(eq(t.leadTravellers.leadId, lead.id), isNull(t.leadTravellers.deletedAt)))
    .orderBy(asc(t.leadTravellers.position), asc(t.leadTravellers.id));
  const countryIds = [...new Set([...lead.destinationIds, lead.sourceId, ...travellers.flatMap((traveller) => traveller.nationalityId ?? [])])];
  const countries = new Map(
    (await db.select({ id: t.countries.id, nameEn: t.countries.nameEn }).from(t.countries).where(inArray(t.countries.id, countryIds))).map(
      (country) => [country.id, country.nameEn],
    ),
  );
  const countryName = (id: number) => countries.get(id) ?? String(id);
  const [company] = await db.select().from(t.companyInfo).where(eq(t.companyInfo.lang, 'en'));

  return {
    policyId: policy.id,
    policyNumber: policy.policyNumber,
    downloadToken: policy.downloadToken,
    issuedAt: policy.issuedAt,
    mailedAt: policy.mailedAt,
    leadId: lead.id,
    customerName: lead.name,
    email: lead.email,
    order: {
      merchantReference: order.merchantReference,
      lang: order.lang === 'ar' ? 'ar' : 'en',
      totalCents: order.totalCents,
      discountCents: order.discountCents,
      couponCode: row.couponCode,
    },
    quoteReference: invoice.quoteRefNo,
    insurer: { nameEn: insurer.nameEn, nameAr: insurer.nameAr },
    plan: {
      nameEn: plan.nameEn,
      nameAr: plan.nameAr,
      coverageEn: plan.coverageNameEn,
      medicalLimitUsd: plan.medicalLimitUsd,
      schengenVisaCompliant: plan.schengenVisaCompliant,
    },
    trip: {
      tripType: lead.tripType,
      startDate: lead.startDate,
      endDate: lead.endDate,
      days: tripDays(lead.startDate, lead.endDate),
      direction: lead.inboundOutbound ? 'outbound' : 'inbound',
      destinations: lead.destinationIds.map(countryName),
      source: countryName(lead.sourceId),
      toSchengenArea: lead.destinationIds.some((id) => SCHENGEN_COUNTRY_IDS.has(id)),
    },
    travellers: travellers.map((traveller) => ({
      firstName: traveller.firstName ?? '',
      middleName: traveller.middleName?.trim() ? traveller.middleName : null,
      lastName: traveller.lastName ?? '',
      dob: traveller.dob,
      passport: traveller.passport,
      nationality: traveller.nationalityId === null ? null : countryName(traveller.nationalityId),
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
