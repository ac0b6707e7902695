import { and, asc, count, eq, inArray, like, max } from 'drizzle-orm';
import type { AgentListItem } from '../../contract/broker-console';
import * as v from 'valibot';
import { emailSchema, NAME_MAX_LENGTH, nameSchema } from '../../contract/travel-details.rules';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { textTable } from '../text-table';

/**
 * The broker's agents (issue 36 item 3): the people who quote on a customer's behalf with
 * `?agent_id=<id>` links (RULINGS 14). Listed with their work (leads made, share e-mails sent,
 * orders paid), added with a new id, and disabled: a disabled agent's links then show the unknown
 * agent message and new leads are refused for it, while what it did stays on record.
 */

/** A change the broker asked for that cannot be made, said as it is. */
export class AgentAdminError extends Error {}

export type { AgentListItem };

/** Every agent, by id, with its work. */
export async function listAgents(db: Db): Promise<AgentListItem[]> {
  const agents = await db.select().from(t.agents).orderBy(asc(t.agents.id));
  if (agents.length === 0) return [];
  const ids = agents.map((agent) => agent.id);
  const [leads, paid, shares] = await Promise.all([
    db.select({ agentId: t.leads.agentId, n: count() }).from(t.leads).where(inArray(t.leads.agentId, ids)).groupBy(t.leads.agentId),
    db
      .select({ agentId: t.orders.agentId, n: count() })
      .from(t.orders)
      .where(and(inArray(t.orders.agentId, ids), eq(t.orders.status, 'paid')))
      .groupBy(t.orders.agentId),
    db
      .select({ agentId: t.leads.agentId, n: count() })
      .from(t.mailLog)
      .innerJoin(t.leads, eq(t.leads.id, t.mailLog.leadId))
      .where(and(inArray(t.leads.agentId, ids), like(t.mailLog.kind, 'share-%')))
      .groupBy(t.leads.agentId),
  ]);
  const of = (rows: { agentId: number | null; n: number }[], id: number) => rows.find((row) => row.agentId === id)?.n ?? 0;
  return agents.map((agent) => ({
    id: agent.id,
    name: agent.name,
    email: agent.email,
    active: agent.active,
    created: agent.createdAt.toISOString(),
    leads: of(leads, agent.id),
    shares: of(shares, agent.id),
    paid_orders: of(paid, agent.id),
  }));
}

/** The agents as an aligned text table. */
export function formatAgents(items: readonly AgentListItem[]): string {
  if (items.length === 0) return 'No agents.';
  return textTable(
    ['id', 'name', 'email', 'active', 'leads', 'shares', 'paid orders', 'created'],
    items.map((item) => [String(item.id), item.name, item.email, item.active ? 'yes' : 'no', String(item.leads), String(item.shares), String(item.paid_orders), item.created]),
  );
}

/**
 * Adds an agent under the next id (at least 101, the first agent link's), with the name and
 * e-mail held to the travel details form's rules. Two adds at once each get their own id.
 */
export async function addAgent(db: Db, input: { name?: string; email?: string }, now: number): Promise<AgentListItem> {
  const name = v.safeParse(nameSchema, input.name ?? '');
  if (!name.success) throw new AgentAdminError(`--name must be a name in Latin letters, spaces, ".", "_", one "'" and one "-", at most ${NAME_MAX_LENGTH} characters (got "${input.name ?? ''}").`);
  const email = v.safeParse(emailSchema, input.email ?? '');
  if (!email.success) throw new AgentAdminError(`--email must be an e-mail address (got "${input.email ?? ''}").`);
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const [{ top } = { top: null }] = await db.select({ top: max(t.agents.id) }).from(t.agents);
    const id = Math.max(100, top ?? 0) + 1;
    const [row] = await db
      .insert(t.agents)
      .values({ id, name: name.output, email: email.output.toLowerCase(), active: true, createdAt: new Date(now) })
      .onConflictDoNothing()
      .returning();
    if (row) return { id: row.id, name: row.name, email: row.email, active: row.active, created: row.createdAt.toISOString(), leads: 0, shares: 0, paid_orders: 0 };
  }
  throw new AgentAdminError('Another agent was added at the same moment five times: run the command again.');
}

/** Disables an agent (kept: leads and orders name it); answers whether it was active before. */
export async function disableAgent(db: Db, id: number): Promise<{ before: { active: boolean }; after: { active: boolean } }> {
  const [current] = await db.select({ active: t.agents.active }).from(t.agents).where(eq(t.agents.id, id));
  if (!current) throw new AgentAdminError(`No agent has the id ${id}.`);
  await db.update(t.agents).set({ active: false }).where(eq(t.agents.id, id));
  return { before: { active: current.active }, after: { active: false } };
}
