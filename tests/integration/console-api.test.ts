import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_API, CONSOLE_AUTH_PATH, CSRF_HEADER, type CancellationRequestItem } from '../../src/contract/broker-console';
import { tempCheckoutEndpoint } from '../../src/contract/checkout.endpoints';
import { runBrokerArgs } from '../../src/server/admin/broker-commands';
import { CODE_FAILURES_BEFORE_LOCK, createConsoleAuth } from '../../src/server/admin/console-auth';
import * as t from '../../src/server/db/schema';
import { RATE_LIMITS } from '../../src/server/rate-limit/rate-limit';
import { signedHeaders } from '../support/signed-request';
import { testConfig } from '../support/test-app';
import { totpCode } from '../support/totp';
import type { LeadTestApp } from './lead-fixtures';
import { createPaymentTestApp, leadAtCheckout, orderRow, payOnCardPage, pendingOrder, placeOrder } from './payment-fixtures';

/**
 * The broker's console API (issue 36 items 2, 6 and 7), in process over a seeded database: an
 * account made by `users add` and its one-time setup link, a password and a TOTP second factor
 * (codes computed from the QR code's URI as an authenticator app does), sessions, the CSRF token,
 * roles, and the attacks: a setup link used twice, a guessed password, a TOTP code replayed, a
 * forged change, a customer's signed request, an expired session, two refund clicks at once.
 */

const ORIGIN = new URL(testConfig().publicUrl).origin;
const PASSWORD = 'correct horse battery staple';
let app: LeadTestApp;

beforeAll(async () => {
  app = await createPaymentTestApp();
});
afterAll(() => app.close());

const CLI = { actor: 'cli:broker', canSendRefunds: true, publicUrl: testConfig().publicUrl };

interface Agent {
  cookie: string;
  csrf: string;
  email: string;
}

/** A console request as the browser sends it: same origin, the session cookie, and for a change the CSRF token. */
function call(path: string, options: { method?: string; body?: unknown; agent?: Partial<Agent> | null; origin?: string | null; csrf?: string | null; headers?: Record<string, string> } = {}) {
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(options.headers ?? {}) };
  if (options.origin !== null) headers.origin = options.origin ?? ORIGIN;
  if (options.agent?.cookie) headers.cookie = options.agent.cookie;
  const csrf = options.csrf === undefined ? options.agent?.csrf : options.csrf;
  if (csrf) headers[CSRF_HEADER] = csrf;
  return app.app.request(`${ORIGIN}${path}`, { method, headers, body: method === 'GET' ? undefined : JSON.stringify(options.body ?? {}) });
}

const cookieOf = (res: Response) => res.headers.getSetCookie().map((cookie) => cookie.split(';')[0]).join('; ');

/** Makes an account with the CLI and answers its setup token. */
async function addUser(email: string, role: 'admin' | 'staff'): Promise<string> {
  const run = await runBrokerArgs(app.db, ['users', 'add', email, '--role', role], Date.now(), CLI);
  expect({ code: run.code, err: run.err }).toEqual({ code: 0, err: '' });
  const link = /https?:\/\/\S+\/broker\/setup\?token=([A-Za-z0-9_-]+)/.exec(run.out);
  expect({ link: link?.[1] ?? null, out: run.out }).toMatchObject({ link: expect.any(String) });
  return link![1]!;
}

async function signIn(email: string, password = PASSWORD) {
  return call(`${CONSOLE_AUTH_PATH}/sign-in/email`, { body: { email, password } });
}

/** A new account from `users add` to a signed-in session with its TOTP set up; answers the session and the authenticator's URI. */
async function newMember(email: string, role: 'admin' | 'staff'): Promise<Agent & { uri: string }> {
  const token = await addUser(email, role);
  const setup = await call(`${CONSOLE_API}/setup`, { body: { token, password: PASSWORD } });
  expect(setup.status).toBe(200);
  const signedIn = await signIn(email);
  expect(signedIn.status).toBe(200);
  const cookie = cookieOf(signedIn);
  const enable = await call(`${CONSOLE_AUTH_PATH}/two-factor/enable`, { body: { password: PASSWORD }, agent: { cookie } });
  const { totpURI } = (await enable.json()) as { totpURI: string };
  const verify = await call(`${CONSOLE_AUTH_PATH}/two-factor/verify-totp`, { body: { code: totpCode(totpURI) }, agent: { cookie } });
  expect(verify.status).toBe(200);
  const session = cookieOf(verify) || cookie;
  const me = (await (await call(`${CONSOLE_API}/me`, { agent: { cookie: session } })).json()) as { data: { csrf_token: string; two_factor_enabled: boolean } };
  expect(me.data.two_factor_enabled).toBe(true);
  return { cookie: session, csrf: me.data.csrf_token, email, uri: totpURI };
}

/** Signs in again with password then code, as the console's sign-in screen does. */
async function signInWithCode(email: string, uri: string, steps = 0): Promise<{ first: Response; second: Response; cookie: string }> {
  const first = await signIn(email);
  const second = await call(`${CONSOLE_AUTH_PATH}/two-factor/verify-totp`, { body: { code: totpCode(uri, Date.now(), steps) }, agent: { cookie: cookieOf(first) } });
  return { first, second, cookie: cookieOf(second) };
}

describe('accounts', () => {
  it('a fresh database has no console account: nobody can sign in, and /me says signed out', async () => {
    expect(await app.db.select().from(t.consoleUsers)).toEqual([]);
    expect((await signIn('admin@safar.test')).status).toBe(401);
    const me = await call(`${CONSOLE_API}/me`);
    expect(me.status).toBe(401);
    expect(((await me.json()) as { data: { code: string } }).data.code).toBe('signed_out');
  });

  it('users add prints a one-time setup link; the password is set once (two uses at once: one wins), scrypt-hashed, and the link is not stored', async () => {
    const token = await addUser('Setup.Once@Safar.test', 'staff');
    const stored = await app.db.select().from(t.consoleVerifications);
    expect(JSON.stringify(stored)).not.toContain(token);
    const [one, two] = await Promise.all([
      call(`${CONSOLE_API}/setup`, { body: { token, password: PASSWORD } }),
      call(`${CONSOLE_API}/setup`, { body: { token, password: 'another password of mine' } }),
    ]);
    expect([one.status, two.status].sort()).toEqual([200, 422]);
    const again = await call(`${CONSOLE_API}/setup`, { body: { token, password: PASSWORD } });
    expect(again.status).toBe(422);
    expect(((await again.json()) as { data: { code: string } }).data.code).toBe('setup_invalid');
    const [account] = await app.db.select().from(t.consoleAccounts);
    expect(account!.password).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
    expect(account!.password).not.toContain(PASSWORD);
  });

  it('a short password is refused with its field code, and the link still works after', async () => {
    const token = await addUser('short@safar.test', 'staff');
    const res = await call(`${CONSOLE_API}/setup`, { body: { token, password: 'short' } });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { data: { errors: Record<string, string> } }).data.errors).toEqual({ password: 'too_short' });
    expect((await call(`${CONSOLE_API}/setup`, { body: { token, password: PASSWORD } })).status).toBe(200);
  });
});

describe('signing in', () => {
  it('the session cookie is HttpOnly, SameSite=Strict and scoped to /broker; until TOTP is set up the account sees nothing but /me', async () => {
    const token = await addUser('fresh@safar.test', 'admin');
    await call(`${CONSOLE_API}/setup`, { body: { token, password: PASSWORD } });
    const res = await signIn('fresh@safar.test');
    expect(res.status).toBe(200);
    const [cookie] = res.headers.getSetCookie();
    expect(cookie).toMatch(/^safar-console\.session_token=/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).toMatch(/; Path=\/broker/);
    const me = (await (await call(`${CONSOLE_API}/me`, { agent: { cookie: cookieOf(res) } })).json()) as { data: { two_factor_enabled: boolean; role: string } };
    expect(me.data).toMatchObject({ two_factor_enabled: false, role: 'admin' });
    const today = await call(`${CONSOLE_API}/today`, { agent: { cookie: cookieOf(res) } });
    expect(today.status).toBe(403);
    expect(((await today.json()) as { data: { code: string } }).data.code).toBe('two_factor_required');
  });

  it('over https (PUBLIC_URL https) the session cookie is also Secure', async () => {
    const token = await addUser('secure@safar.test', 'staff');
    await call(`${CONSOLE_API}/setup`, { body: { token, password: PASSWORD } });
    const auth = createConsoleAuth(app.db, { publicUrl: 'https://safar.example', secret: 'a-test-secret-of-thirty-two-chars!' });
    const res = await auth.handler(
      new Request(`https://safar.example${CONSOLE_AUTH_PATH}/sign-in/email`, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://safar.example' }, body: JSON.stringify({ email: 'secure@safar.test', password: PASSWORD }) }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()[0]).toMatch(/^__Secure-safar-console\.session_token=[^;]+;.*; Secure/);
  });

  it('with TOTP on, the password alone opens nothing; the code from the QR URI does, a wrong code does not, and the same code twice is refused', async () => {
    const member = await newMember('totp@safar.test', 'staff');
    const first = await signIn(member.email);
    expect(((await first.json()) as { twoFactorRedirect?: boolean }).twoFactorRedirect).toBe(true);
    expect((await call(`${CONSOLE_API}/today`, { agent: { cookie: cookieOf(first) } })).status).toBe(401);
    const wrong = await call(`${CONSOLE_AUTH_PATH}/two-factor/verify-totp`, { body: { code: '000000' === totpCode(member.uri) ? '111111' : '000000' }, agent: { cookie: cookieOf(first) } });
    expect(wrong.status).toBe(401);
    // The next period's code: the one newMember used is spent already.
    const { second, cookie } = await signInWithCode(member.email, member.uri, 1);
    expect(second.status).toBe(200);
    expect((await call(`${CONSOLE_API}/today`, { agent: { cookie } })).status).toBe(200);
    const replay = await signInWithCode(member.email, member.uri, 1);
    expect(replay.second.status).toBe(401);
    expect(((await replay.second.json()) as { data: { code: string } }).data.code).toBe('code_used');
    expect((await call(`${CONSOLE_API}/today`, { agent: { cookie: replay.cookie } })).status).toBe(401);
  });

  it('guessing a password: after 10 failures the account answers 429 even to its right password; another account from the same address still signs in', async () => {
    const token = await addUser('guessed@safar.test', 'staff');
    await call(`${CONSOLE_API}/setup`, { body: { token, password: PASSWORD } });
    for (let attempt = 0; attempt < 10; attempt += 1) expect((await signIn('guessed@safar.test', `wrong password ${attempt}`)).status).toBe(401);
    const locked = await signIn('guessed@safar.test');
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await signIn('fresh@safar.test')).status).toBe(200);
  });

  it('twenty guesses at once: no more than the ten the account allows are tried, the rest answer 429', async () => {
    const token = await addUser('raced@safar.test', 'staff');
    await call(`${CONSOLE_API}/setup`, { body: { token, password: PASSWORD } });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => signIn('raced@safar.test', `wrong password ${index}`)));
    const statuses = answers.map((res) => res.status);
    expect({ refused: statuses.filter((status) => status === 401).length, limited: statuses.filter((status) => status === 429).length }).toEqual({ refused: 10, limited: 10 });
  });

  it('guessing codes: after 5 wrong codes (over several sign-ins) the right code is refused too, for 15 minutes', async () => {
    const member = await newMember('codes@safar.test', 'staff');
    const wrongCode = (uri: string) => String((Number(totpCode(uri)) + 500_000) % 1_000_000).padStart(6, '0');
    for (let attempt = 0; attempt < CODE_FAILURES_BEFORE_LOCK; attempt += 1) {
      const first = await signIn(member.email);
      const res = await call(`${CONSOLE_AUTH_PATH}/two-factor/verify-totp`, { body: { code: wrongCode(member.uri) }, agent: { cookie: cookieOf(first) } });
      expect(res.status).toBe(401);
    }
    const locked = await signInWithCode(member.email, member.uri, 1);
    expect(locked.second.status).not.toBe(200);
    expect((await call(`${CONSOLE_API}/today`, { agent: { cookie: locked.cookie } })).status).toBe(401);
  });

  it('sign out everywhere ends every session of the account', async () => {
    const member = await newMember('everywhere@safar.test', 'staff');
    const other = await signInWithCode(member.email, member.uri, 1);
    expect((await call(`${CONSOLE_API}/today`, { agent: { cookie: other.cookie } })).status).toBe(200);
    const out = await call(`${CONSOLE_AUTH_PATH}/revoke-sessions`, { body: {}, agent: member });
    expect(out.status).toBe(200);
    expect((await call(`${CONSOLE_API}/today`, { agent: member })).status).toBe(401);
    expect((await call(`${CONSOLE_API}/today`, { agent: { cookie: other.cookie } })).status).toBe(401);
  });

  it('a disabled account loses its sessions and cannot sign in again', async () => {
    const member = await newMember('leaver@safar.test', 'staff');
    const run = await runBrokerArgs(app.db, ['users', 'disable', member.email], Date.now(), CLI);
    expect(run.code).toBe(0);
    expect((await call(`${CONSOLE_API}/today`, { agent: member })).status).toBe(401);
    const again = await signInWithCode(member.email, member.uri, 1);
    expect((await call(`${CONSOLE_API}/today`, { agent: { cookie: again.cookie } })).status).toBe(401);
  });
});

/** Every console endpoint with a body that would pass its schema. */
const ENDPOINTS: { method: 'GET' | 'POST'; path: string; body?: unknown; admin: boolean }[] = [
  { method: 'GET', path: '/today?days=7', admin: false },
  { method: 'GET', path: '/call-backs', admin: false },
  { method: 'POST', path: '/call-backs/999999', body: { note: 'x' }, admin: false },
  { method: 'GET', path: '/orders', admin: false },
  { method: 'GET', path: '/orders/NOPE', admin: false },
  { method: 'POST', path: '/orders/NOPE/resend', admin: false },
  { method: 'GET', path: '/mail', admin: false },
  { method: 'POST', path: '/mail/999999/retry', admin: false },
  { method: 'GET', path: '/refunds', admin: true },
  { method: 'POST', path: '/refunds/pay', body: { merchant_reference: 'NOPE' }, admin: true },
  { method: 'POST', path: '/policies/NOPE/cancel', body: { reason: 'other' }, admin: true },
  { method: 'GET', path: '/cancellation-requests?status=all', admin: false },
  { method: 'POST', path: '/cancellation-requests/999999/decline', admin: true },
  { method: 'GET', path: '/coupons', admin: true },
  { method: 'POST', path: '/coupons', body: { code: 'AUTHZ10', type: 'percent', value: '10' }, admin: true },
  { method: 'POST', path: '/coupons/AUTHZ10/edit', body: { limit: '5' }, admin: true },
  { method: 'POST', path: '/coupons/AUTHZ10/disable', admin: true },
  { method: 'GET', path: '/agents', admin: true },
  { method: 'POST', path: '/agents', body: { name: 'Authz', email: 'authz@agent.test' }, admin: true },
  { method: 'POST', path: '/agents/999999/disable', admin: true },
  { method: 'GET', path: '/audit', admin: true },
  { method: 'GET', path: '/users', admin: true },
  { method: 'POST', path: '/users', body: { email: 'authz-new@safar.test', role: 'staff' }, admin: true },
  { method: 'POST', path: '/users/nobody@safar.test/disable', admin: true },
];

describe('authorisation of every console endpoint', () => {
  let staff: Agent;
  let admin: Agent;
  beforeAll(async () => {
    staff = await newMember('authz-staff@safar.test', 'staff');
    admin = await newMember('authz-admin@safar.test', 'admin');
  });

  it.each(ENDPOINTS)('$method $path: refused without a session, for a customer signed request, an expired session, a change without CSRF or from another origin, and (admin) for staff', async ({ method, path, body, admin: adminOnly }) => {
    const url = `${CONSOLE_API}${path}`;
    const codeOf = async (res: Response) => ({ status: res.status, code: ((await res.json()) as { data: { code?: string } }).data.code });
    expect(await codeOf(await call(url, { method, body }))).toEqual({ status: 401, code: 'signed_out' });
    // The customer's app signs its API requests with the shipped key: that opens nothing here.
    const text = JSON.stringify(body ?? {});
    const signed = await app.app.request(`${ORIGIN}${url}`, { method, headers: await signedHeaders(testConfig().signingSecret, text), body: method === 'GET' ? undefined : text });
    expect(await codeOf(signed)).toEqual({ status: 401, code: 'signed_out' });
    const changes =
      method === 'POST'
        ? [
            await codeOf(await call(url, { method, body, agent: admin, csrf: null })),
            await codeOf(await call(url, { method, body, agent: admin, csrf: staff.csrf })),
            await codeOf(await call(url, { method, body, agent: admin, origin: 'https://evil.example' })),
          ]
        : [];
    expect(changes).toEqual(method === 'POST' ? Array(3).fill({ status: 403, code: 'csrf' }) : []);
    const asStaff = await codeOf(await call(url, { method, body, agent: staff }));
    expect(asStaff.status === 403 ? asStaff : 'allowed').toEqual(adminOnly ? { status: 403, code: 'forbidden' } : 'allowed');
    expect([200, 404, 422]).toContain((await call(url, { method, body, agent: admin })).status);
  });

  it('an expired session is refused everywhere', async () => {
    const member = await newMember('expired@safar.test', 'admin');
    const [user] = await app.db.select().from(t.consoleUsers).where(eq(t.consoleUsers.email, member.email));
    await app.db.update(t.consoleSessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(t.consoleSessions.userId, user!.id));
    for (const { method, path, body } of ENDPOINTS) expect((await call(`${CONSOLE_API}${path}`, { method, body, agent: member })).status).toBe(401);
  });

  it('a hostile body gets a 4xx with field codes, never a 5xx', async () => {
    for (const body of ['not json', '[]', '{"reason":"x"}', `{"note":"${'x'.repeat(3000)}"}`, '{"__proto__":{"admin":true}}', '{"code":"\u0000"}']) {
      for (const path of ['/policies/P1/cancel', '/call-backs/1', '/coupons', '/refunds/pay', '/users']) {
        const res = await app.app.request(`${ORIGIN}${CONSOLE_API}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: ORIGIN, cookie: admin.cookie, [CSRF_HEADER]: admin.csrf }, body });
        expect(res.status, `${path} ${body}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${path} ${body}`).toBeLessThan(500);
      }
    }
  });

  it('each console change is in the audit log under the person who made it, and reading an order is too', async () => {
    expect((await call(`${CONSOLE_API}/coupons`, { body: { code: 'AUDITED5', type: 'percent', value: '5' }, agent: admin })).status).toBe(200);
    const { order } = await pendingOrder(app);
    expect((await call(`${CONSOLE_API}/orders/${order.merchantReference}`, { agent: staff })).status).toBe(200);
    const audit = (await (await call(`${CONSOLE_API}/audit`, { agent: admin })).json()) as { data: { actor: string; action: string; target: string }[] };
    expect(audit.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ actor: `console:${admin.email}`, action: 'coupons.add', target: 'AUDITED5' }),
        expect.objectContaining({ actor: `console:${staff.email}`, action: 'orders.show', target: order.merchantReference }),
      ]),
    );
  });

  it('an admin adds an account in the console and gets its one-time setup link, which sets the password once', async () => {
    const res = await call(`${CONSOLE_API}/users`, { body: { email: 'from-console@safar.test', role: 'staff' }, agent: admin });
    const { data } = (await res.json()) as { data: { setup_url: string } };
    expect(data.setup_url).toMatch(new RegExp(`^${ORIGIN}/broker/setup\\?token=[A-Za-z0-9_-]{32}$`));
    const token = new URL(data.setup_url).searchParams.get('token')!;
    expect((await call(`${CONSOLE_API}/setup`, { body: { token, password: PASSWORD } })).status).toBe(200);
    expect((await signIn('from-console@safar.test')).status).toBe(200);
  });

  it('coupons list the uses held by checkouts not yet paid, against the limit', async () => {
    expect((await call(`${CONSOLE_API}/coupons`, { body: { code: 'HELD10', type: 'percent', value: '10', limit: '3' }, agent: admin })).status).toBe(200);
    await pendingOrder(app, { coupon: 'HELD10' });
    const coupons = (await (await call(`${CONSOLE_API}/coupons`, { agent: admin })).json()) as { data: { code: string; held_count: number; used_count: number; usage_limit: number | null }[] };
    expect(coupons.data.find((item) => item.code === 'HELD10')).toMatchObject({ held_count: 1, used_count: 0, usage_limit: 3 });
  });

  it('orders page on the server: page size, total, oldest first, and a bad page size is a 422', async () => {
    for (let index = 0; index < 3; index += 1) await pendingOrder(app);
    const page = (await (await call(`${CONSOLE_API}/orders?page=1&page_size=10&sort=oldest`, { agent: staff })).json()) as { data: { items: { created: string }[]; total: number } };
    expect(page.data.total).toBeGreaterThanOrEqual(3);
    const created = page.data.items.map((item) => item.created);
    expect(created).toEqual([...created].sort());
    expect((await call(`${CONSOLE_API}/orders?page_size=7`, { agent: staff })).status).toBe(422);
  });

  it("customers' cancellation requests: staff and admin read them (open by default, or one policy's); an admin declines one under their name; cancelling a policy in the console makes its request done", async () => {
    const policies = [];
    for (const name of ['Nour', 'Hadi']) {
      const lead = await leadAtCheckout(app, { names: [{ first: name, last: 'Tabet' }] });
      expect((await app.send(tempCheckoutEndpoint.path, { uuid: lead.uuid, total_price_vat: 0, language: 'en', coupon: 'FREE100' })).status).toBe(200);
      const [policy] = await app.db.select().from(t.policies).where(eq(t.policies.leadId, lead.leadId));
      const [request] = await app.db.insert(t.cancellationRequests).values({ policyId: policy!.id, reason: 'visa_refused', note: `${name}'s visa was refused.` }).returning();
      policies.push({ number: policy!.policyNumber, requestId: request!.id });
    }
    const [declined, cancelled] = policies as [(typeof policies)[0], (typeof policies)[0]];
    const list = async (query: string, agent: Agent) => {
      const res = await call(`${CONSOLE_API}/cancellation-requests${query}`, { agent });
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: CancellationRequestItem[] }).data;
    };
    const open = await list('', staff);
    expect(open.filter((item) => item.status !== 'open')).toEqual([]);
    expect(open.map((item) => item.id)).toEqual(expect.arrayContaining([declined.requestId, cancelled.requestId]));
    expect(await list(`?policy=${declined.number}`, admin)).toMatchObject([{ id: declined.requestId, policy_number: declined.number, reason: 'visa_refused', note: "Nour's visa was refused.", status: 'open' }]);
    expect((await call(`${CONSOLE_API}/cancellation-requests?status=closed`, { agent: staff })).status).toBe(422);

    expect((await call(`${CONSOLE_API}/cancellation-requests/${declined.requestId}/decline`, { body: {}, agent: staff })).status).toBe(403);
    const decline = await call(`${CONSOLE_API}/cancellation-requests/${declined.requestId}/decline`, { body: {}, agent: admin });
    expect(decline.status).toBe(200);
    expect(((await decline.json()) as { data: { done: string } }).data.done).toBe(`Declined cancellation request ${declined.requestId}: ${declined.number} stays in force.`);
    const again = await call(`${CONSOLE_API}/cancellation-requests/${declined.requestId}/decline`, { body: {}, agent: admin });
    expect(again.status).toBe(422);
    expect(((await again.json()) as { data: { code: string; detail: string } }).data).toMatchObject({ code: 'refused', detail: expect.stringContaining('is declined already') as unknown });
    expect(await list(`?status=declined&policy=${declined.number}`, staff)).toMatchObject([{ status: 'declined', handled_by: `console:${admin.email}` }]);

    expect((await call(`${CONSOLE_API}/policies/${cancelled.number}/cancel`, { body: { reason: 'visa_refused' }, agent: admin })).status).toBe(200);
    expect(await list(`?status=all&policy=${cancelled.number}`, staff)).toMatchObject([{ id: cancelled.requestId, status: 'done', handled_by: `console:${admin.email}`, policy_cancelled: expect.any(String) as unknown }]);
    expect((await list('', staff)).map((item) => item.id)).not.toEqual(expect.arrayContaining([declined.requestId]));
    const audit = (await (await call(`${CONSOLE_API}/audit`, { agent: admin })).json()) as { data: { actor: string; action: string; target: string }[] };
    expect(audit.data).toEqual(expect.arrayContaining([expect.objectContaining({ actor: `console:${admin.email}`, action: 'cancellation-requests.decline', target: `cancellation request ${declined.requestId}` })]));
  });

  it('two refund clicks at once: one REFUND is queued, the other is refused', async () => {
    const first = await pendingOrder(app);
    const second = await placeOrder(app, first.lead.uuid);
    await payOnCardPage(app, first.order);
    const paid = await payOnCardPage(app, second);
    await app.app.feedbackWorker.drain();
    expect((await orderRow(app, second.merchantReference)).status).toBe('refund');
    const jobs = async () => (await app.db.select().from(t.outbox).where(eq(t.outbox.queue, 'aps-refund'))).length;
    const before = await jobs();
    const clicks = await Promise.all([0, 1].map(() => call(`${CONSOLE_API}/refunds/pay`, { body: { merchant_reference: second.merchantReference, fort_id: paid.fort_id }, agent: admin })));
    expect(clicks.map((res) => res.status).sort()).toEqual([200, 422]);
    expect((await jobs()) - before).toBe(1);
  });
});

// Last in the file: it uses up the in-process address's sign-in tries, which every test above shares.
describe('the address limit', () => {
  it('thirty failed sign-ins from one address, each on another e-mail, and the next e-mail answers 429', async () => {
    await app.db.delete(t.rateLimitCounters);
    const limit = RATE_LIMITS.consoleSignIn.perAddress.limit;
    for (let index = 0; index < limit; index += 1) expect((await signIn(`nobody${index}@safar.test`, 'wrong password here')).status).toBe(401);
    expect((await signIn('fresh@safar.test')).status).toBe(429);
  });
});
