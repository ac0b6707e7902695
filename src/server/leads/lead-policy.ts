import { asc, inArray } from 'drizzle-orm';
import { policyPagePath } from '../../contract/policy-page.endpoints';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { leadInDeal } from '../orders/invoice-store';
import type { LeadRow } from './lead-store';

/**
 * Where a paid lead leads (RULINGS 28): a paid trip is finished, and every link to it opens its
 * policy's page. A lead's order is paid at most once, so a lead has at most one policy.
 */

/** The policy page path (/policy/<token>) of each of these leads that has a policy, by lead id. */
export async function policyPagesOfLeads(db: Db, leadIds: readonly number[]): Promise<Map<number, string>> {
  const pages = new Map<number, string>();
  if (leadIds.length === 0) return pages;
  const rows = await db
    .select({ leadId: t.policies.leadId, token: t.policies.pageToken })
    .from(t.policies)
    .where(inArray(t.policies.leadId, [...new Set(leadIds)]))
    .orderBy(asc(t.policies.id));
  for (const row of rows) if (!pages.has(row.leadId)) pages.set(row.leadId, policyPagePath(row.token));
  return pages;
}

/** The lead's policy page path, or null while it has no policy. */
export async function policyPageOfLead(db: Db, leadId: number): Promise<string | null> {
  return (await policyPagesOfLeads(db, [leadId])).get(leadId) ?? null;
}

/**
 * lead-status: paid once the lead's order is paid (its invoice is no longer open, as
 * isLeadAlreadyInDeal says), with the policy's page; open otherwise.
 */
export async function leadStatus(db: Db, lead: Pick<LeadRow, 'id'>): Promise<{ status: 'open' | 'paid'; policy_page: string | null }> {
  if (!(await leadInDeal(db, lead.id))) return { status: 'open', policy_page: null };
  return { status: 'paid', policy_page: await policyPageOfLead(db, lead.id) };
}
