import * as v from 'valibot';
import { ZONES } from '../../contract/quote.endpoints';

/**
 * The quoting API of an HTTP insurer (RULINGS 10): POST <INSURER_API_URL>/quote with the trip's
 * facts, answered with a price per plan. The insurer sandbox this server hosts speaks it, and
 * the adapter checks every answer against it, so a garbled answer is a failure, not a price.
 */

const int = (min: number, max: number) => v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));
const cents = int(0, 100_000_000);

export const insurerQuoteRequestSchema = v.object({
  insurer_id: int(1, 2_147_483_647),
  travellers: v.pipe(v.array(v.object({ age: int(0, 130) })), v.minLength(1), v.maxLength(20)),
  trip_days: int(1, 1000),
  trip_type: v.picklist([1, 2]),
  destination_ids: v.pipe(v.array(int(1, 999)), v.minLength(1), v.maxLength(300)),
  is_family: v.boolean(),
  family_child_max_age: int(0, 130),
});
export type InsurerQuoteRequest = v.InferOutput<typeof insurerQuoteRequestSchema>;

export const insurerQuoteResponseSchema = v.object({
  quotes: v.pipe(
    v.array(
      v.object({
        plan_id: int(1, 2_147_483_647),
        zone: v.picklist(ZONES),
        premium_cents: cents,
        per_person: v.array(v.object({ position: int(0, 19), age: int(0, 130), cents })),
        addons: v.array(
          v.object({ addon_id: int(1, 2_147_483_647), code: v.string(), cents, covered_travellers: int(0, 20), disabled: v.boolean() }),
        ),
        family_priced: v.boolean(),
      }),
    ),
    v.maxLength(200),
  ),
});
export type InsurerQuoteResponse = v.InferOutput<typeof insurerQuoteResponseSchema>;
