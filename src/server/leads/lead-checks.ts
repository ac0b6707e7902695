import { and, eq, inArray } from 'drizzle-orm';
import type { FieldErrors } from '../../contract/error-codes';
import { travelDetailsErrors } from '../../contract/travel-details.rules';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { readSettings } from '../db/settings';
import type { AddCustomerLeadInput } from './lead-values';

/** The active agent with this id, or null (RULINGS 14: an unknown id is never attributed silently). */
export async function findActiveAgent(db: Db, agentId: number) {
  const [agent] = await db
    .select({ id: t.agents.id, name: t.agents.name })
    .from(t.agents)
    .where(and(eq(t.agents.id, agentId), eq(t.agents.active, true)));
  return agent ?? null;
}

/** Ids among `ids` that are not countries. */
async function unknownCountries(db: Db, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const found = await db.select({ id: t.countries.id }).from(t.countries).where(inArray(t.countries.id, ids));
  const known = new Set(found.map((row) => row.id));
  return ids.filter((id) => !known.has(id));
}

/**
 * True when `code` ("+961") is the calling code of a country in the database, the list
 * get-country-codes offers (spec §9: a made-up "+9999" is refused, not stored).
 */
export async function isKnownPhoneCode(db: Db, code: string): Promise<boolean> {
  const [row] = await db.select({ id: t.countries.id }).from(t.countries).where(eq(t.countries.phoneCode, code)).limit(1);
  return row !== undefined;
}

/** Field errors for values that name nothing in the database: calling code, countries, agent, relationships. */
async function referenceErrors(db: Db, input: AddCustomerLeadInput): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  if (!(await isKnownPhoneCode(db, input.phone_country_code))) errors.phone_country_code = 'phone_code_invalid';
  // Only the end of the trip the traveller chose is checked: the other one is Lebanon, set by the server.
  if (input.inbound_outbound) {
    if ((await unknownCountries(db, input.destination_id)).length > 0) errors.destination_id = 'destination_required';
  } else if (input.source_id !== null && (await unknownCountries(db, [input.source_id])).length > 0) {
    errors.source_id = 'source_required';
  }

  if (input.agent_id && !(await findActiveAgent(db, input.agent_id))) errors.agent_id = 'agent_unknown';

  // The principal's relationship is always set by the server, so only the others are checked.
  const asked = input.travellers_info.flatMap((traveller, index) =>
    index > 0 && traveller.relationship_type_id ? [{ index, id: traveller.relationship_type_id }] : [],
  );
  if (asked.length > 0) {
    const ids = asked.map((a) => a.id);
    // Two lists name relationships: get-travel-configs' relation_types and /health/relationships.
    const [fromMaster, fromHealth] = await Promise.all([
      db
        .select({ id: t.masterItems.id })
        .from(t.masterItems)
        .where(and(eq(t.masterItems.kind, 'relation_types'), inArray(t.masterItems.id, ids))),
      db.select({ id: t.relationships.id }).from(t.relationships).where(inArray(t.relationships.id, ids)),
    ]);
    const known = new Set([...fromMaster, ...fromHealth].map((row) => row.id));
    for (const { index, id } of asked) {
      if (!known.has(id)) errors[`travellers_info.${index}.relationship_type_id`] = 'invalid_value';
    }
  }
  return errors;
}

/**
 * Every reason the lead cannot be saved, field by field: the shared rules of spec §5 (with the
 * broker's limits from settings) first, then ids that name nothing. Empty when it may be saved.
 */
export async function leadInputErrors(db: Db, input: AddCustomerLeadInput, today: string): Promise<FieldErrors> {
  const limits = await readSettings(db, ['max_traveller_count', 'family_child_max_age']);
  const ruleErrors = travelDetailsErrors(input, {
    today,
    maxTravellers: limits.max_traveller_count,
    familyChildMaxAge: limits.family_child_max_age,
  });
  const errors: FieldErrors = { ...(await referenceErrors(db, input)) };
  for (const [field, code] of Object.entries(ruleErrors)) if (code) errors[field] = code;
  return errors;
}
