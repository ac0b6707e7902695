/**
 * What an order buys, frozen when temp-checkout places it (orders.contract). The policy, its
 * certificate and its mail are drawn from this alone: whatever the lead becomes later (another
 * trip, plan or travellers), a paid order covers exactly what its customer paid for.
 */

/** A country as the contract names it, in both languages. */
export interface ContractCountry {
  id: number;
  nameEn: string;
  nameAr: string;
}

/** One traveller as saved at review, when the order was placed. */
export interface ContractTraveller {
  /** lead_travellers.id, for the broker; the row itself may change later. */
  id: number;
  /** Latin letters, as on the passport (nameSchema). */
  firstName: string;
  middleName: string | null;
  lastName: string;
  dob: string;
  /** Normalised (Western digits, capitals, no spaces); null where the plan did not ask for it. */
  passport: string | null;
  nationality: ContractCountry | null;
  residence: ContractCountry | null;
  titleId: number | null;
  genderId: number | null;
  relationshipTypeId: number | null;
  maritalStatusId: number | null;
}

export interface OrderContract {
  /** The shape's version, so a later change can still read older orders. */
  version: 1;
  quoteReference: string;
  quoteId: number;
  insurer: { id: number; nameEn: string; nameAr: string; logo: string };
  plan: {
    id: number;
    nameEn: string;
    nameAr: string;
    coverageEn: string;
    coverageAr: string;
    medicalLimitUsd: number;
    schengenVisaCompliant: boolean;
  };
  /**
   * The add-ons bought, with the price each was charged at (cents) and the most each pays per
   * traveller (USD; null where it has no sum). Contracts made before issue 37 have no limitUsd:
   * the certificate then reads plan_addons.limit_usd.
   */
  addons: { addonId: number; code: string; nameEn: string; nameAr: string; cents: number; limitUsd?: number | null }[];
  trip: {
    /** 1 single trip, 2 annual multi-trip. */
    tripType: number;
    startDate: string;
    endDate: string;
    days: number;
    /** 'outbound': from Lebanon to the destinations; 'inbound': from the source country to Lebanon. */
    direction: 'outbound' | 'inbound';
    destinations: ContractCountry[];
    source: ContractCountry;
    isFamily: boolean;
  };
  travellers: ContractTraveller[];
  /** The price lines charged (integer cents), as the order's own columns hold them. */
  price: {
    planCents: number;
    addonsCents: number;
    discountCents: number;
    couponCode: string | null;
    vatPercent: number;
    vatCents: number;
    stampCents: number;
    totalCents: number;
  };
  /** Who the policy is for and where its mail goes, as the lead held them at checkout. */
  customer: { name: string; email: string };
}
