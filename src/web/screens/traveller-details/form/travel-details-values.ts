import { tripDays, annualEndDate } from '../../../../contract/dates';
import { phoneDigits } from '../../../../contract/digits';
import {
  HOME_COUNTRY_ID,
  TRIP_TYPE,
  tripBounds,
  type ContactDetails,
  type TravelDetails,
} from '../../../../contract/travel-details.rules';
import type { TravelDetailsValues } from '../../../../../machines/travel-details/travel-details.types';
import { blankTraveller } from '../../../../../machines/travel-details/travel-details.payload';

/**
 * The direction toggle (RULINGS 4, spec §4). From Lebanon: the source is Lebanon and the
 * destinations are picked. To Lebanon: the destination is Lebanon and one source is picked.
 */
export function withDirection(values: TravelDetailsValues, fromLebanon: boolean): TravelDetailsValues {
  if (values.inbound_outbound === fromLebanon) return values;
  return fromLebanon
    ? { ...values, inbound_outbound: true, source_id: HOME_COUNTRY_ID, destination_id: [] }
    : { ...values, inbound_outbound: false, source_id: null, destination_id: [HOME_COUNTRY_ID] };
}

/** The end date that goes with a start date: annual is locked; a single trip keeps a valid end. */
function endFor(start: string | null, end: string | null, tripType: number, today: string): string | null {
  if (!start) return null;
  if (tripType === TRIP_TYPE.annual) return annualEndDate(start);
  if (!end) return null;
  const { endMin, endMax } = tripBounds(start, today);
  return end < endMin || end > endMax ? null : end;
}

/** Spec §4: an empty start, or an end before the start, clears the end date. */
export function withStartDate(values: TravelDetailsValues, start: string | null, today: string): TravelDetailsValues {
  return { ...values, start_date: start, end_date: endFor(start, values.end_date, values.trip_type, today) };
}

/**
 * Spec §4 (issue 8 row 6): an end date typed or picked while the start date is empty, or one
 * before the start, is cleared like the start's own change clears it.
 */
export function withEndDate(values: TravelDetailsValues, end: string | null): TravelDetailsValues {
  if (values.trip_type === TRIP_TYPE.annual) return values;
  const start = values.start_date;
  return { ...values, end_date: end && start && end >= start ? end : null };
}

/** RULINGS 6: annual multi-trip sets the end to start + 12 months − 1 day and locks it. */
export function withTripType(values: TravelDetailsValues, tripType: 1 | 2, today: string): TravelDetailsValues {
  const end = tripType === TRIP_TYPE.annual ? endFor(values.start_date, null, tripType, today) : values.end_date;
  return { ...values, trip_type: tripType, end_date: end };
}

/**
 * The traveller list follows the count (spec §4): blank entries are appended, surplus ones are
 * removed from the end, and a removed saved traveller goes to deleted_members. The family plan
 * needs more than one traveller, so it is switched off at one.
 */
export function withTravellerCount(values: TravelDetailsValues, count: number): TravelDetailsValues {
  const kept = values.travellers_info.slice(0, count);
  const removedIds = values.travellers_info
    .slice(count)
    .map((traveller) => traveller.id)
    .filter((id): id is number => typeof id === 'number');
  while (kept.length < count) kept.push(blankTraveller());
  const deleted = [...values.deleted_members, ...removedIds.filter((id) => !values.deleted_members.includes(id))];
  return {
    ...values,
    no_of_traveller: count,
    travellers_info: kept,
    is_family: count > 1 ? values.is_family : false,
    deleted_members: deleted,
  };
}

export function withTravellerDob(values: TravelDetailsValues, index: number, dob: string | null): TravelDetailsValues {
  const travellers = values.travellers_info.map((traveller, i) => (i === index ? { ...traveller, dob } : traveller));
  return { ...values, travellers_info: travellers };
}

/**
 * The phone field's digits (spec §5): Arabic-keyboard digits converted, everything else
 * stripped, a pasted +961/00961 (or the selected code) dropped, THEN capped for the code.
 */
export function cleanPhoneDigits(text: string, code: string): string {
  return phoneDigits(text, code);
}

export function withPhoneCode<V extends ContactDetails>(values: V, code: string): V {
  return { ...values, phone_country_code: code, phone_number: cleanPhoneDigits(values.phone_number, code) };
}

/** Both dates set: the trip length in days, both ends included. */
export function tripLength(values: Pick<TravelDetails, 'start_date' | 'end_date'>): number | null {
  const { start_date: start, end_date: end } = values;
  return start && end && end >= start ? tripDays(start, end) : null;
}

/** The values as submitted: name and e-mail trimmed (the payload builder adds the principal's names). */
export function submittedValues(values: TravelDetailsValues): TravelDetailsValues {
  return { ...values, name: values.name.trim().replace(/\s+/g, ' '), email: values.email.trim() };
}
