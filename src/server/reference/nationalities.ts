import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import * as t from '../db/schema';

/**
 * Countries that are not nationality options for a trip (RULINGS 4, spec §2 "one provider and
 * destination case"): the trip's destinations (Lebanon for visitors to Lebanon), unless the
 * insurer covers nationals of their destination, and every nationality the insurer does not
 * cover. One rule for the countries list the form offers and for save-traveller-info.
 * Null when `insurerId` names no insurer.
 */
export async function excludedNationalities(db: Db, insurerId: number | null, destinationIds: readonly number[]): Promise<Set<number> | null> {
  const excluded = new Set<number>();
  let keepDestinations = false;
  if (insurerId) {
    const [insurer] = await db.select().from(t.insurers).where(eq(t.insurers.id, insurerId));
    if (!insurer) return null;
    keepDestinations = insurer.acceptsDestinationNationals;
    const refused = await db
      .select({ id: t.insurerExcludedCountries.countryId })
      .from(t.insurerExcludedCountries)
      .where(eq(t.insurerExcludedCountries.insurerId, insurer.id));
    for (const { id } of refused) excluded.add(id);
  }
  if (!keepDestinations) for (const id of destinationIds) excluded.add(id);
  return excluded;
}
