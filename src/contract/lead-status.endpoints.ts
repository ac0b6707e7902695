import * as v from 'valibot';
import { defineEndpoint, langSchema, uuidSchema } from './endpoint';

/**
 * Where a link to a lead leads (RULINGS 28): the SPA asks before it shows a journey page opened by
 * a link that names a lead. paid: the lead's order is paid (policy_page then names its policy's
 * page, null only in the moment before the policy is written); open: anything else. An unknown
 * uuid is the 404 get-personal-details answers for one.
 */
export const leadStatusEndpoint = defineEndpoint(
  '/miscellaneous/travel/wiz/lead-status',
  v.object({ uuid: uuidSchema, lang: v.optional(langSchema, 'en') }),
  v.object({ status: v.picklist(['open', 'paid']), policy_page: v.nullable(v.string()) }),
);
