import { and, eq, inArray, isNull } from 'drizzle-orm';
import { tripDays } from '../../contract/dates';
import type { CheckoutTotals } from '../../contract/checkout.endpoints';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { liveTravellers, type LeadRow } from '../leads/lead-store';
import type { InvoiceRow } from './invoice-store';
import type { ContractCountry, OrderContract } from './order-contract.types';

export type { OrderContract } from './order-contract.types';

/**
 * Builds an order's contract (order-contract.types.ts) from the lead, its chosen invoice and
 * the totals temp-checkout just computed, in the transaction that places the order: what the
 * customer is shown at checkout is what the policy will say. The one way a contract is made;
 * the start-up backfill of orders placed before contracts existed uses it too.
 */
export async function buildOrderContract(
  tx: Db,
  lead: LeadRow,
  invoice: InvoiceRow,
  price: Pick<CheckoutTotals, 'plan_price' | 'addons_price' | 'discount' | 'vat_percent' | 'vat_amount' | 'stamp_fee' | 'total'>,
  couponCode: string | null,
): Promise<OrderContract> {
  const [row] = await tx
    .select({ plan: t.plans, insurer: t.insurers })
    .from(t.plans)
    .innerJoin(t.insurers, eq(t.insurers.id, t.plans.insurerId))
    .where(eq(t.plans.id, invoice.planId));
  if (!row) throw new Error(`order contract: plan ${invoice.planId} of invoice ${invoice.id} is gone`);
  const { plan, insurer } = row;
  const travellers = await liveTravellers(tx, lead.id);
  const ids = [...new Set([...lead.destinationIds, lead.sourceId, ...travellers.flatMap((traveller) => [traveller.nationalityId, traveller.countryId])])].filter(
    (id): id is number => id !== null,
  );
  const countries = new Map(
    (await tx.select({ id: t.countries.id, nameEn: t.countries.nameEn, nameAr: t.countries.nameAr }).from(t.countries).where(inArray(t.countries.id, ids))).map(
      (country) => [country.id, country],
    ),
  );
  const country = (id: number): ContractCountry => countries.get(id) ?? { id, nameEn: String(id), nameAr: String(id) };
  const optionalCountry = (id: number | null) => (id === null ? null : country(id));
  const addonIds = invoice.addons.map((addon) => addon.addonId);
  const limits = new Map(
    addonIds.length
      ? (await tx.select({ id: t.planAddons.id, limitUsd: t.planAddons.limitUsd }).from(t.planAddons).where(inArray(t.planAddons.id, addonIds))).map((row) => [row.id, row.limitUsd])
      : [],
  );

  return {
    version: 1,
    quoteReference: invoice.quoteRefNo,
    quoteId: invoice.quoteId,
    insurer: { id: insurer.id, nameEn: insurer.nameEn, nameAr: insurer.nameAr, logo: insurer.logo },
    plan: {
      id: plan.id,
      nameEn: plan.nameEn,
      nameAr: plan.nameAr,
      coverageEn: plan.coverageNameEn,
      coverageAr: plan.coverageNameAr,
      medicalLimitUsd: plan.medicalLimitUsd,
      schengenVisaCompliant: plan.schengenVisaCompliant,
    },
    addons: invoice.addons.map(({ addonId, code, nameEn, nameAr, cents }) => ({ addonId, code, nameEn, nameAr, cents, limitUsd: limits.get(addonId) ?? null })),
    trip: {
      tripType: lead.tripType,
      startDate: lead.startDate,
      endDate: lead.endDate,
      days: tripDays(lead.startDate, lead.endDate),
      direction: lead.inboundOutbound ? 'outbound' : 'inbound',
      destinations: lead.destinationIds.map(country),
      source: country(lead.sourceId),
      isFamily: lead.isFamily,
    },
    travellers: travellers.map((traveller) => ({
      id: traveller.id,
      firstName: traveller.firstName ?? '',
      middleName: traveller.middleName?.trim() ? traveller.middleName : null,
      lastName: traveller.lastName ?? '',
      dob: traveller.dob,
      passport: traveller.passport,
      nationality: optionalCountry(traveller.nationalityId),
      residence: optionalCountry(traveller.countryId),
      titleId: traveller.titleId,
      genderId: traveller.genderId,
      relationshipTypeId: traveller.relationshipTypeId,
      maritalStatusId: traveller.maritalStatusId,
    })),
    price: {
      planCents: price.plan_price,
      addonsCents: price.addons_price,
      discountCents: price.discount,
      couponCode,
      vatPercent: price.vat_percent,
      vatCents: price.vat_amount,
      stampCents: price.stamp_fee,
      totalCents: price.total,
    },
    customer: { name: lead.name, email: lead.email },
  };
}

/**
 * Orders placed before contracts existed (migration 0008) that were paid get one, built from
 * their lead and invoice as they are at the first start after the upgrade: the best record
 * there is, and frozen from then on. Pending ones were voided by the migration. Run at start.
 */
export async function backfillOrderContracts(db: Db): Promise<number> {
  const rows = await db
    .select({ order: t.orders, lead: t.leads, invoice: t.invoices, couponCode: t.coupons.code })
    .from(t.orders)
    .innerJoin(t.leads, eq(t.leads.id, t.orders.leadId))
    .innerJoin(t.invoices, eq(t.invoices.id, t.orders.invoiceId))
    .leftJoin(t.coupons, eq(t.coupons.id, t.orders.couponId))
    .where(isNull(t.orders.contract));
  for (const { order, lead, invoice, couponCode } of rows) {
    const contract = await buildOrderContract(
      db,
      lead,
      invoice,
      {
        plan_price: order.planCents,
        addons_price: order.addonsCents,
        discount: order.discountCents,
        vat_percent: order.vatPercent,
        vat_amount: order.vatCents,
        stamp_fee: order.stampCents,
        total: order.totalCents,
      },
      couponCode,
    );
    await db
      .update(t.orders)
      .set({ contract })
      .where(and(eq(t.orders.id, order.id), isNull(t.orders.contract)));
  }
  return rows.length;
}
