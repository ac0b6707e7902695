import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCustomerLeadEndpoint } from '../../src/contract/lead.endpoints';
import { requestCallBackEndpoint } from '../../src/contract/quote.endpoints';
import { formatCallBacks, runBrokerArgs } from '../../src/server/admin/broker-commands';
import { CALL_BACKS_PER_PHONE_PER_HOUR, listCallBacks } from '../../src/server/call-backs/call-back-store';
import * as t from '../../src/server/db/schema';
import { createTestApp, type TestApp } from '../support/test-app';
import { errorCodes } from './expect-envelope';
import { FIXED_NOW, leadBody } from './lead-fixtures';

/** request-call-back (RULINGS 12–13) and the broker's list of call-backs. */

let app: TestApp;
/** The app's clock (mocked), moved forward by the rate-limit test. */
let clock = FIXED_NOW;
let tick = 0;
const send = (path: string, body: unknown) => app.post(path, body, { nowMs: clock + (tick += 1) });

beforeAll(async () => {
  app = await createTestApp({ now: () => clock });
});
afterAll(() => app.close());

let phoneSequence = 0;
function callBackBody(overrides: Record<string, unknown> = {}) {
  phoneSequence += 1;
  return {
    name: 'Karim Khoury',
    email: ' Karim.K@Example.com ',
    phone_country_code: '+961',
    phone_number: `3${String(phoneSequence).padStart(6, '0')}`,
    reason: 'no_quotes_found',
    ...overrides,
  };
}

async function requestOk(body: unknown) {
  const res = await send(requestCallBackEndpoint.path, body);
  const json: unknown = await res.json();
  expect({ status: res.status, json }).toMatchObject({ status: 200 });
  return v.parse(requestCallBackEndpoint.response, json).data.call_back_id;
}

const rowOf = async (id: number) => (await app.db.select().from(t.callBacks).where(eq(t.callBacks.id, id)))[0]!;

describe('request-call-back', () => {
  it('stores the task with the lead the visitor was on, and answers its id', async () => {
    const leadRes = await send(addCustomerLeadEndpoint.path, leadBody());
    const { data: lead } = v.parse(addCustomerLeadEndpoint.response, await leadRes.json());
    const body = callBackBody({ uuid: lead.uuid, lang: 'ar', agent_id: 101 });
    const id = await requestOk(body);
    const [leadRow] = await app.db.select().from(t.leads).where(eq(t.leads.uuid, lead.uuid));
    expect(await rowOf(id)).toMatchObject({
      leadId: leadRow!.id,
      reason: 'no_quotes_found',
      name: 'Karim Khoury',
      email: 'karim.k@example.com',
      completePhoneNumber: `+961${body.phone_number}`,
      lang: 'ar',
      agentId: 101,
      status: 'new',
      assignee: null,
    });
  });

  it('stores a task without a lead when there is none, or the uuid names none', async () => {
    const id = await requestOk(callBackBody({ reason: undefined }));
    expect(await rowOf(id)).toMatchObject({ leadId: null, reason: 'customer_request' });
    const unknown = await requestOk(callBackBody({ uuid: '0b7c2a57-8d3e-4c43-9a57-7e3f1c3c2d11' }));
    expect((await rowOf(unknown)).leadId).toBeNull();
  });

  it('refuses bad contact details with the codes of add-customer-lead (422), and stores nothing', async () => {
    const before = (await app.db.select().from(t.callBacks)).length;
    const res = await send(
      requestCallBackEndpoint.path,
      callBackBody({ name: 'K4rim', email: 'not-an-email', phone_number: '12' }),
    );
    expect(await errorCodes(res, 422)).toEqual({ name: 'name_chars', email: 'email_invalid', phone_number: 'phone_digits_961' });
    const other = await send(requestCallBackEndpoint.path, callBackBody({ name: ' ', phone_country_code: '961', phone_number: '' }));
    expect(await errorCodes(other, 422)).toEqual({ name: 'name_required', phone_country_code: 'phone_code_invalid', phone_number: 'phone_required' });
    const abroad = await send(requestCallBackEndpoint.path, callBackBody({ phone_country_code: '+33', phone_number: '1234567' }));
    expect(await errorCodes(abroad, 422)).toEqual({ phone_number: 'phone_digits_other' });
    const agent = await send(requestCallBackEndpoint.path, callBackBody({ agent_id: 99_999 }));
    expect(await errorCodes(agent, 422)).toEqual({ agent_id: 'agent_unknown' });
    expect((await app.db.select().from(t.callBacks)).length).toBe(before);
  });

  it(`allows ${CALL_BACKS_PER_PHONE_PER_HOUR} requests per phone per hour, then 429 until the hour has passed (clock mocked)`, async () => {
    const body = callBackBody();
    for (let i = 0; i < CALL_BACKS_PER_PHONE_PER_HOUR; i += 1) await requestOk(body);
    expect(await errorCodes(await send(requestCallBackEndpoint.path, body), 429)).toEqual({ phone_number: 'rate_limited' });
    // Another number is not affected.
    await requestOk(callBackBody());
    clock += 60 * 60 * 1000 + 1000;
    await requestOk(body);
  });
});

describe('the broker list', () => {
  it('lists open call-backs newest first with their lead uuid, leaving closed ones out', async () => {
    const older = await requestOk(callBackBody({ name: 'Older Caller' }));
    clock += 60_000;
    const newer = await requestOk(callBackBody({ name: 'Newer Caller' }));
    const closed = await requestOk(callBackBody({ name: 'Closed Caller' }));
    await app.db.update(t.callBacks).set({ status: 'closed' }).where(eq(t.callBacks.id, closed));

    const items = await listCallBacks(app.db);
    const ids = items.map((item) => item.id);
    expect(ids).not.toContain(closed);
    expect(ids.indexOf(newer)).toBeLessThan(ids.indexOf(older));
    const created = items.map((item) => item.created);
    expect([...created].sort().reverse()).toEqual(created);
    expect(items.find((item) => item.id === newer)).toMatchObject({
      name: 'Newer Caller',
      reason: 'no_quotes_found',
      email: 'karim.k@example.com',
      created: new Date(clock).toISOString(),
    });
    expect(items.some((item) => item.lead_uuid !== null)).toBe(true);

    const table = formatCallBacks(items).split('\n');
    expect(table[0]).toMatch(/^id\s+created\s+reason\s+name\s+phone\s+email\s+lead uuid\s+status\s+assignee\s+last note$/);
    expect(table[2]).toContain('Newer Caller');
    expect(table).toHaveLength(items.length + 2);
    expect(formatCallBacks([])).toBe('No open call-back requests.');
    expect((await listCallBacks(app.db, 'closed')).map((item) => item.id)).toContain(closed);
  });

  it('call-backs set works one: status, assignee and notes under the author, each change in the audit log; closed leaves the default list; refusals say why', async () => {
    const id = await requestOk(callBackBody({ name: 'Worked Caller' }));
    const as = (actor: string) => ({ actor, canSendRefunds: false });
    const set = (actor: string, ...args: string[]) => runBrokerArgs(app.db, ['call-backs', 'set', String(id), ...args], clock, as(actor));
    expect((await set('cli:maya', '--status', 'contacted', '--assignee', 'Maya', '--note', 'Called, wants a family plan.')).out).toBe(`Call-back ${id}: contacted, with Maya, note added.`);
    clock += 60_000;
    expect((await set('cli:omar', '--status=quoted', '--note', 'Sent a manual quote by e-mail.')).code).toBe(0);
    const item = (await listCallBacks(app.db)).find((entry) => entry.id === id);
    expect(item).toMatchObject({
      status: 'quoted',
      assignee: 'Maya',
      notes: [
        { at: new Date(clock - 60_000).toISOString(), author: 'cli:maya', text: 'Called, wants a family plan.' },
        { at: new Date(clock).toISOString(), author: 'cli:omar', text: 'Sent a manual quote by e-mail.' },
      ],
    });
    expect((await set('cli:omar', '--status', 'closed', '--assignee', '')).out).toBe(`Call-back ${id}: closed, with nobody.`);
    expect((await listCallBacks(app.db)).map((entry) => entry.id)).not.toContain(id);
    const audit = ((await runBrokerArgs(app.db, ['audit', '--json'], clock, as('cli:omar'))).json as { action: string; target: string; before: unknown; after: unknown; actor: string }[]).filter(
      (entry) => entry.target === `call-back ${id}`,
    );
    expect(audit.map(({ actor, before, after }) => ({ actor, before, after }))).toEqual([
      { actor: 'cli:omar', before: { status: 'quoted', assignee: 'Maya' }, after: { status: 'closed', assignee: null } },
      { actor: 'cli:omar', before: { status: 'contacted', assignee: 'Maya' }, after: { status: 'quoted', assignee: 'Maya', note: 'Sent a manual quote by e-mail.' } },
      { actor: 'cli:maya', before: { status: 'new', assignee: null }, after: { status: 'contacted', assignee: 'Maya', note: 'Called, wants a family plan.' } },
    ]);
    for (const [args, said] of [
      [['--status', 'done'], '--status is one of new, contacted, quoted, closed (got "done").'],
      [[], 'Say what changes: --status, --assignee or --note.'],
      [['--note', '  '], '--note needs some text.'],
    ] as const) {
      const run = await set('cli:omar', ...args);
      expect({ args, code: run.code, first: run.err.split('\n')[0] }).toEqual({ args, code: 2, first: said });
    }
    const unknown = await runBrokerArgs(app.db, ['call-backs', 'set', '999999', '--status', 'closed'], clock, as('cli:omar'));
    expect(unknown.err.split('\n')[0]).toBe('No call-back has the id 999999.');
  });
});
