import * as v from 'valibot';
import { agentIdSchema, defineEndpoint, langSchema, uuidSchema } from './endpoint';
import { toWesternDigits } from './digits';
import { travellerSchema } from './lead.endpoints';
import { REVIEW_NAME_WIRE_MAX, PASSPORT_MAX_LENGTH } from './traveller-review.rules';

/**
 * The review step (spec §7 save-traveller-info): one traveller at a time. The server checks the
 * traveller with travellerReviewErrors (the form's own rules), the offered options and the
 * quoted date of birth (RULINGS 8), and only for a lead whose plan is still chosen.
 */

const id = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_147_483_647));
const optionalId = v.optional(v.nullable(id), null);
const name = v.optional(v.nullable(v.pipe(v.string(), v.maxLength(REVIEW_NAME_WIRE_MAX))), null);

/** A traveller's review fields; `id` names one of the lead's live travellers. */
export const reviewTravellerSchema = v.object({
  id,
  /** The title (spec "type"): an id of the prefex list. */
  type: optionalId,
  first_name: name,
  middle_name: name,
  last_name: name,
  /** "YYYY-MM-DD"; Arabic-keyboard digits are read (RULINGS 25). */
  dob: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(40), v.transform(toWesternDigits))), null),
  gender_id: optionalId,
  /** Normalised by the rules (spaces dropped, capitals); longer than 20 is refused there with its code. */
  passport: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(PASSPORT_MAX_LENGTH * 4))), null),
  /** Country of residence. */
  country_id: optionalId,
  nationality_id: optionalId,
  relationship_type_id: optionalId,
  marital_status_id: optionalId,
});
export type ReviewTraveller = v.InferInput<typeof reviewTravellerSchema>;

export const saveTravellerInfoEndpoint = defineEndpoint(
  '/miscellaneous/travel/wiz/save-traveller-info',
  v.object({
    /** The lead (RULINGS 24: whoever holds its uuid may continue its journey). */
    uuid: uuidSchema,
    traveller: reviewTravellerSchema,
    /** The insurer of the plan the page shows; a plan changed meanwhile is refused (409 plan_changed). */
    insurance_id: id,
    agent_id: agentIdSchema,
    session_id: v.optional(v.nullable(uuidSchema), null),
    lang: v.optional(langSchema, 'en'),
  }),
  v.object({
    /**
     * "dob" (RULINGS 8) when the date of birth differs from the quoted one or the traveller is
     * outside the plan's ages: nothing is saved and `message` says why, in the asked language.
     */
    error: v.nullable(v.picklist(['dob'])),
    message: v.nullable(v.string()),
    /** The lead's stage: 3 once every traveller is saved (checkout). */
    leads: v.object({ uuid: v.string(), stage: v.picklist([1, 2, 3]) }),
    /** The session id the caller sent when it is the lead's, else null (RULINGS 24). */
    session_id: v.nullable(v.string()),
    /** The traveller as saved; null with error "dob". */
    traveller: v.nullable(travellerSchema),
  }),
);
