/**
 * What the console can read of an order's frozen contract (src/server/orders/order-contract.types.ts,
 * version 1) without depending on the server's types: every field is checked, and whatever is
 * missing is left out (the whole contract is shown as JSON beside it).
 */
export interface ContractReading {
  insurer: string | null;
  plan: string | null;
  tripStart: string | null;
  tripEnd: string | null;
  destinations: string[];
  travellers: { name: string; dob: string | null; passport: string | null }[];
  totalCents: number | null;
}

type Bag = Record<string, unknown>;
const bag = (value: unknown): Bag | null => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Bag) : null);
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** A name in the UI's language when the object has one (nameEn / nameAr), else the other. */
const nameOf = (value: unknown, lang: 'en' | 'ar'): string | null => {
  const named = bag(value);
  if (!named) return null;
  return lang === 'ar' ? (text(named.nameAr) ?? text(named.nameEn)) : (text(named.nameEn) ?? text(named.nameAr));
};

export function readContract(contract: unknown, lang: 'en' | 'ar'): ContractReading {
  const root = bag(contract) ?? {};
  const trip = bag(root.trip) ?? {};
  const price = bag(root.price) ?? {};
  return {
    insurer: nameOf(root.insurer, lang),
    plan: nameOf(root.plan, lang),
    tripStart: text(trip.startDate),
    tripEnd: text(trip.endDate),
    destinations: list(trip.destinations)
      .map((destination) => nameOf(destination, lang))
      .filter((name): name is string => name !== null),
    travellers: list(root.travellers).map((value) => {
      const traveller = bag(value) ?? {};
      const name = [traveller.firstName, traveller.middleName, traveller.lastName].map(text).filter(Boolean).join(' ');
      return { name, dob: text(traveller.dob), passport: text(traveller.passport) };
    }),
    totalCents: typeof price.totalCents === 'number' ? price.totalCents : null,
  };
}
