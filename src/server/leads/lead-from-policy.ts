import { eq } from 'drizzle-orm';
import { RELATIONSHIP_PRINCIPAL } from '../../contract/travel-details.rules';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import type { ContractTraveller } from '../orders/order-contract.types';
import { liveTravellers, type TravellerRow } from './lead-store';

/**
 * "Buy again" from a policy page (issue 37 item 2): the travellers of a new quote are those of
 * the policy, so the review form opens filled with what they gave last time. Each traveller
 * added by this save whose date of birth matches one of the policy's travellers gets that
 * traveller's review fields as its order froze them (orders.contract); two of one date pair up
 * by their order. The review stays to be done (reviewed_at, the spec's is_field, stays null): the
 * customer confirms each traveller for the plan chosen now, which may ask for other fields.
 */

/** Pairs each traveller with the policy traveller of its date of birth: the one at its own position if that matches, else the first left. */
export function matchTravellers(travellers: readonly Pick<TravellerRow, 'id' | 'position' | 'dob'>[], insured: readonly ContractTraveller[]) {
  const used = new Set<number>();
  const pairs: { travellerId: number; position: number; insured: ContractTraveller }[] = [];
  for (const traveller of travellers) {
    const samePlace = insured[traveller.position];
    const index =
      samePlace && samePlace.dob === traveller.dob && !used.has(traveller.position)
        ? traveller.position
        : insured.findIndex((candidate, at) => !used.has(at) && candidate.dob === traveller.dob);
    if (index < 0) continue;
    used.add(index);
    pairs.push({ travellerId: traveller.id, position: traveller.position, insured: insured[index]! });
  }
  return pairs;
}

/**
 * Inside add-customer-lead's transaction, after the travellers are saved: copies the review fields
 * of the policy whose page token is `token` onto the lead's live travellers at `positions` (those
 * this save added). A token that names no policy copies nothing. Answers how many were filled.
 */
export async function copyReviewFromPolicy(tx: Db, leadId: number, token: string, positions: ReadonlySet<number>): Promise<number> {
  const [policy] = await tx
    .select({ contract: t.orders.contract })
    .from(t.policies)
    .innerJoin(t.orders, eq(t.orders.id, t.policies.orderId))
    .where(eq(t.policies.pageToken, token));
  if (!policy?.contract || positions.size === 0) return 0;
  const live = await liveTravellers(tx, leadId);
  const pairs = matchTravellers(
    live.filter((row) => positions.has(row.position)),
    policy.contract.travellers,
  );
  for (const { travellerId, position, insured } of pairs) {
    // A passport is unique among a lead's live travellers: one kept from before keeps it.
    const taken = insured.passport !== null && live.some((row) => row.id !== travellerId && row.passport === insured.passport);
    // The first traveller is the principal; the others keep the relationship the form gave when the policy's is the principal's.
    const relationship = position === 0 ? RELATIONSHIP_PRINCIPAL : insured.relationshipTypeId !== null && insured.relationshipTypeId !== RELATIONSHIP_PRINCIPAL ? insured.relationshipTypeId : undefined;
    await tx
      .update(t.leadTravellers)
      .set({
        titleId: insured.titleId,
        firstName: insured.firstName,
        middleName: insured.middleName,
        lastName: insured.lastName,
        passport: taken ? null : insured.passport,
        genderId: insured.genderId,
        maritalStatusId: insured.maritalStatusId,
        nationalityId: insured.nationality?.id ?? null,
        countryId: insured.residence?.id ?? null,
        ...(relationship === undefined ? {} : { relationshipTypeId: relationship }),
        reviewedAt: null,
      })
      .where(eq(t.leadTravellers.id, travellerId));
  }
  return pairs.length;
}
