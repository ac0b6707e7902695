/**
 * The agent ids of links that this page load found unknown (RULINGS 14, issue 38): refused by the
 * server's agent check (travel details' own, or screens/agent-link-notice.tsx on the other pages).
 * The pages then work as a customer's (step-lead.ts), so nothing is sent in the unknown agent's
 * name and no agent-only refusal stops the customer; the notice tells the agent why. Kept in
 * memory only: a reload of the agent's link asks again.
 */
const unknownAgents = new Set<string>();
const listeners = new Set<() => void>();

export function markAgentUnknown(agentId: string): void {
  if (unknownAgents.has(agentId)) return;
  unknownAgents.add(agentId);
  for (const listener of listeners) listener();
}

export const agentIsUnknown = (agentId: string | null): boolean => agentId !== null && unknownAgents.has(agentId);

/** Calls `listener` when an agent id is found unknown; returns the unsubscribe function (useSyncExternalStore). */
export function onAgentUnknown(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
