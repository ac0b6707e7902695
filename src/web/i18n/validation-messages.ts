import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { TravelDetailsCode } from '../../contract/travel-details.rules';

/**
 * One message per validation code (spec §5), the English text as the spec gives it, except
 * where the spec's words leave the customer stuck (the family checkbox, a taken e-mail or phone).
 * Machines and the server carry codes; only this table turns them into words. Render with
 * `i18n._(message, { childAge })`: the family message prints the broker's child age limit, so
 * the text and the rule never disagree (RULINGS 7); with the default 18 it reads as the spec.
 */
export const TRAVEL_DETAILS_MESSAGES: Record<TravelDetailsCode, MessageDescriptor> = {
  name_required: msg`Please enter your first name, last name or full name`,
  name_chars: msg`Only character a-z, - and ' allowed`,
  name_too_long: msg`Name must be at most 62 characters`,
  email_required: msg`Please enter your email`,
  email_invalid: msg`Email address must be valid`,
  email_too_long: msg`Email must be at most 62 characters`,
  // A returning customer with a new phone needs a way forward, not just a refusal (issue 8 row 13).
  email_taken: msg`Email already taken with another phone number. Enter the phone number you used before with this e-mail, or use another e-mail.`,
  phone_required: msg`Please enter phone number`,
  phone_code_invalid: msg`Please select a country code`,
  phone_digits_961: msg`Please enter at least 7 digits and max 8 digits.`,
  phone_digits_other: msg`Please enter at least 8 digits and max 10 digits.`,
  // A returning customer with a new e-mail, likewise (issue 38): the help box under the form offers a call back.
  phone_taken: msg`Phone number already taken with another e-mail. Enter the e-mail you used before with this phone number, or use another phone number.`,
  date_invalid: msg`Please select correct date`,
  destination_required: msg`Please select destination`,
  source_required: msg`Please select source`,
  members_min: msg`Member count must not be less than or equal to 0`,
  members_max: msg`Too many travellers for one online quote`,
  travellers_min: msg`Minimum 1 traveller is required`,
  travellers_incomplete: msg`Mandatory traveller fields are required`,
  dob_required: msg`Please select correct date of birth`,
  dob_invalid: msg`Please select correct date of birth`,
  family_parent_missing: msg`Parent is not added`,
  // The family option is a checkbox, so the spec's "select No" reads "untick" (issue 8 row 13).
  family_not_eligible: msg({ message: 'Kindly untick "We are travelling as a family": a child is {childAge}+ or a parent is over 70 years of age' }),
  agent_unknown: msg`This agent link is not valid. Please check it with your broker.`,
  contact_locked: msg`The email and phone of a saved trip can only be changed from the link it was saved with. Keep them, or start a new quote.`,
};

