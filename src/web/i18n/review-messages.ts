import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { ReviewCode } from '../../contract/traveller-review.rules';

/**
 * The review step's codes (src/contract/traveller-review.rules.ts), one message each; apart from
 * the travel details messages so they load with the review page's chunk, not the first page.
 * The wording is spec §5's, word for word (issue 17): an empty name and the title ("type").
 */
export const REVIEW_MESSAGES: Record<ReviewCode, MessageDescriptor> = {
  title_required: msg`Please select type`,
  name_required: msg`Please enter your first name, last name or full name`,
  name_chars: msg`Only character a-z, - and ' allowed`,
  name_too_long: msg`Name must be at most 62 characters`,
  dob_required: msg`Please select correct date of birth`,
  dob_invalid: msg`Please select correct date of birth`,
  gender_required: msg`Please select gender`,
  passport_required: msg`Please enter passport number`,
  passport_chars: msg`Only characters a-z and 0-9 are allowed`,
  passport_too_long: msg`Passport number must be at most 20 characters`,
  passport_duplicate: msg`Another traveller on this policy has this passport number`,
  residence_required: msg`Please select country of residence`,
  nationality_required: msg`Please select nationality`,
  nationality_not_covered: msg`This insurer does not cover travellers of this nationality on this trip`,
  relationship_required: msg`Please select relationship`,
  option_invalid: msg`Please choose one of the options in the list`,
};
