import { selectLead, type JourneySnapshot } from '../../../machines/journey.selectors';
import type { QuotesView } from '../../../machines/quotes/quotes.types';
import { agentIsUnknown } from './agent-link';

/** The lead a later step works on, as its machine's input needs it. */
export interface StepLead {
  uuid: string | null;
  sessionId: string | null;
  /** The agent of the link (agent mode), or null for a customer. */
  agentId: number | null;
  /** The page's address as the agent shares it (without the agent), or null for a customer. */
  link: string | null;
}

/**
 * The agent of a link as the steps use it: a positive whole number, or null for a customer (a
 * missing, malformed or zero `agent`; agent_id 0 is what a customer's requests send), and null
 * for an agent the server does not know (RULINGS 14): the page says so and works as a
 * customer's (agent-link.ts, issue 38).
 */
export function stepAgentId(agentId: string | null): number | null {
  const value = agentId === null ? null : Number(agentId);
  return value !== null && Number.isInteger(value) && value > 0 && !agentIsUnknown(agentId) ? value : null;
}

/**
 * The journey's lead for the step at `path` (review details, checkout): the agent id read as a
 * positive whole number, and in agent mode the link the agent shares for this page.
 */
export function stepLead(snapshot: JourneySnapshot, path: string): StepLead {
  const lead = selectLead(snapshot);
  const validAgent = stepAgentId(lead.agentId);
  const link = validAgent !== null ? pageLink(path, lead.uuid) : null;
  return { uuid: lead.uuid, sessionId: lead.sessionId, agentId: validAgent, link };
}

/** A lead's page at `path` on this site, as it is shared; null outside a browser page or without a lead. */
function pageLink(path: string, uuid: string | null): string | null {
  const origin = globalThis.location?.origin;
  return uuid && origin?.startsWith('http') ? `${origin}${path}?uuid=${encodeURIComponent(uuid)}` : null;
}

/**
 * The quote list's or compare table's address as an agent shares it (the lead's page, without
 * the agent), sent with every compare-quotes call; null outside a browser page or without a lead.
 */
export function quotesShareLink(view: QuotesView, uuid: string | null): string | null {
  return pageLink(view === 'offers' ? '/compare-offers' : '/compare-quotes', uuid);
}
