import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBrokerArgs, runBrokerArgs, runBrokerCommand, USAGE, type BrokerCommand } from '../../src/server/admin/broker-commands';
import type { Database } from '../../src/server/db/client';
import * as t from '../../src/server/db/schema';
import { DEMO_COUPONS } from '../../src/server/db/seed-data';
import { addCoupon, CouponAdminError, disableCoupon, formatCoupons, listCoupons } from '../../src/server/orders/coupon-admin';
import { couponProblem } from '../../src/server/orders/coupons';
import { createTestDatabase } from '../support/test-db';

/** The broker's coupon commands (`npm run broker -- coupons …`) over a throwaway seeded database. */

const TODAY = '2026-03-15';
let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

/** Runs a command line as the CLI does (parse, then run); answers the exit code and what was printed. */
async function broker(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const command = parseBrokerArgs(argv);
  if (typeof command === 'string') return { code: 2, out: '', err: command };
  const code = await runBrokerCommand(database.db, command, { out: (text) => out.push(text), err: (text) => err.push(text) }, Date.parse(`${TODAY}T12:00:00Z`));
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const row = async (code: string) => (await database.db.select().from(t.coupons).where(eq(t.coupons.code, code)))[0];

describe('coupons list', () => {
  it('lists the seeded demo coupons with type, value, dates, uses and limit, provider and state', async () => {
    const items = await listCoupons(database.db);
    expect(items.map((item) => item.code)).toEqual(expect.arrayContaining(DEMO_COUPONS.map((coupon) => coupon.code)));
    expect(items.find((item) => item.code === 'SAVE25')).toEqual({
      code: 'SAVE25',
      type: 'fixed',
      value: 2_500,
      valid_from: '2026-01-01',
      valid_to: '2099-12-31',
      used_count: 0,
      held_count: 0,
      usage_limit: null,
      provider_id: null,
      provider_name: null,
      active: true,
    });

    const table = await broker('coupons');
    expect(table.code).toBe(0);
    const lines = table.out.split('\n');
    expect(lines[0]).toMatch(/^code\s+type\s+value\s+valid from\s+valid to\s+uses\/limit\s+held\s+provider\s+active$/);
    expect(lines.find((line) => line.startsWith('SAVE25 '))).toMatch(/^SAVE25\s+fixed\s+\$25\s+2026-01-01\s+2099-12-31\s+0\/∞\s+0\s+any\s+yes$/);
    expect(lines.find((line) => line.startsWith('FREE100 '))).toMatch(/100 %\s+2026-01-01\s+2099-12-31\s+0\/1000\s+0\s+any\s+yes$/);
    expect(lines.find((line) => line.startsWith('PHOENICIA20 '))).toMatch(/20 %.*\s3\s+yes$/);
    // The console names the insurer a coupon is for, in both languages.
    expect(items.find((item) => item.code === 'PHOENICIA20')?.provider_name).toEqual({ en: expect.any(String), ar: expect.any(String) });

    const json = await broker('coupons', '--json');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toEqual(items);
    expect(formatCoupons([])).toBe('No coupons.');
  });

  it('the seeded coupons are what the README lists: SAFAR10, SAVE25, FREE100 valid today, OLD15 expired, PHOENICIA20 for provider 3', async () => {
    const problem = async (code: string, insurerId = 1000) => couponProblem(await row(code), { insurerId, today: TODAY, held: 0 });
    expect(await problem('SAFAR10')).toBeNull();
    expect(await problem('SAVE25')).toBeNull();
    expect(await problem('FREE100')).toBeNull();
    expect(await problem('OLD15')).toBe('coupon_expired');
    expect(await problem('PHOENICIA20')).toBe('coupon_wrong_provider');
    expect(await problem('PHOENICIA20', 3)).toBeNull();
  });
});

describe('coupons add', () => {
  it('adds a percent coupon with every option, and a fixed one in dollars stored as cents', async () => {
    const added = await broker('coupons', 'add', '--code', 'spring 15', '--type', 'percent', '--value', '15', '--from', '2026-04-01', '--to=2026-05-31', '--limit', '50', '--provider', '7');
    expect(added).toEqual({ code: 0, out: 'Added coupon SPRING15: 15 %, valid 2026-04-01 to 2026-05-31.', err: '' });
    expect(await row('SPRING15')).toMatchObject({ discountType: 1, discountValue: 15, validFrom: '2026-04-01', validTo: '2026-05-31', usageLimit: 50, usedCount: 0, providerId: 7, active: true });

    expect((await broker('coupons', 'add', '--code', 'TENOFF', '--type', 'fixed', '--value', '12.50')).code).toBe(0);
    // Without --from it starts today; without --to it runs to 2099; no limit, any insurer.
    expect(await row('TENOFF')).toMatchObject({ discountType: 2, discountValue: 1_250, validFrom: TODAY, validTo: '2099-12-31', usageLimit: null, providerId: null });
    expect((await listCoupons(database.db)).find((item) => item.code === 'TENOFF')).toMatchObject({ type: 'fixed', value: 1_250 });
  });

  it.each([
    ['a code too short', ['--code', 'AB', '--type', 'percent', '--value', '10'], /--code must be 3 to 32 letters/],
    ['a code with other characters', ['--code', 'ÉTÉ!', '--type', 'percent', '--value', '10'], /--code must be/],
    ['no code', ['--type', 'percent', '--value', '10'], /--code is required/],
    ['an unknown type', ['--code', 'BADTYPE', '--type', 'half', '--value', '10'], /--type must be "percent" or "fixed" \(got "half"\)/],
    ['a percent over 100', ['--code', 'BADPCT', '--type', 'percent', '--value', '150'], /whole number from 1 to 100 \(got "150"\)/],
    ['a percent of 0', ['--code', 'BADPCT', '--type', 'percent', '--value', '0'], /whole number from 1 to 100/],
    ['a fractional percent', ['--code', 'BADPCT', '--type', 'percent', '--value', '12.5'], /whole number from 1 to 100/],
    ['a fixed value that is not dollars', ['--code', 'BADFIX', '--type', 'fixed', '--value', 'ten'], /in dollars, above 0/],
    ['a fixed value of 0', ['--code', 'BADFIX', '--type', 'fixed', '--value', '0'], /in dollars, above 0/],
    ['three decimals', ['--code', 'BADFIX', '--type', 'fixed', '--value', '1.005'], /at most 2 decimals/],
    ['no value', ['--code', 'NOVALUE', '--type', 'fixed'], /--value is required/],
    ['an impossible date', ['--code', 'BADDATE', '--type', 'percent', '--value', '10', '--to', '2026-02-30'], /--to must be a date as YYYY-MM-DD/],
    ['a date in another format', ['--code', 'BADDATE', '--type', 'percent', '--value', '10', '--from', '01/04/2026'], /--from must be a date/],
    ['dates the wrong way round', ['--code', 'BADDATE', '--type', 'percent', '--value', '10', '--from', '2026-06-01', '--to', '2026-05-01'], /must not be after --to/],
    ['a limit of 0', ['--code', 'BADLIMIT', '--type', 'percent', '--value', '10', '--limit', '0'], /--limit must be a whole number of uses, at least 1/],
    ['an unknown provider', ['--code', 'BADPROV', '--type', 'percent', '--value', '10', '--provider', '999'], /--provider 999 is not a known insurer id \(known: 3, 7, .*1000/],
    ['a duplicate code', ['--code', 'safar10', '--type', 'percent', '--value', '10'], /A coupon SAFAR10 exists already/],
  ])('refuses %s with a clear message, the usage and exit code 2; nothing is added', async (_label, args, pattern) => {
    const before = await listCoupons(database.db);
    const result = await broker('coupons', 'add', ...args);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(pattern);
    expect(result.err).toContain(USAGE);
    expect(await listCoupons(database.db)).toEqual(before);
  });

  it('addCoupon throws CouponAdminError for the same input (the function tests call directly)', async () => {
    await expect(addCoupon(database.db, { code: 'X', type: 'percent', value: '10' }, TODAY)).rejects.toBeInstanceOf(CouponAdminError);
  });
});

describe('coupons disable', () => {
  it('disables a coupon: it is kept, listed as not active, and refused like an unknown code', async () => {
    expect(await broker('coupons', 'disable', 'save25')).toEqual({ code: 0, out: 'Disabled coupon SAVE25: it is now refused like an unknown code.', err: '' });
    expect(await row('SAVE25')).toMatchObject({ active: false });
    expect(couponProblem(await row('SAVE25'), { insurerId: 1000, today: TODAY, held: 0 })).toBe('coupon_unknown');
    expect((await broker('coupons')).out.split('\n').find((line) => line.startsWith('SAVE25 '))).toMatch(/\sno$/);
  });

  it('an unknown code is an error with exit code 2', async () => {
    const result = await broker('coupons', 'disable', 'NOSUCH');
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/No coupon has the code "NOSUCH"/);
    await expect(disableCoupon(database.db, 'NOSUCH', Date.now())).rejects.toBeInstanceOf(CouponAdminError);
  });
});

describe('coupons edit', () => {
  it('changes the dates and the limit (none lifts it), keeps what is not named, refuses a limit below the uses paid and dates out of order', async () => {
    expect((await broker('coupons', 'add', '--code', 'EDIT20', '--type', 'percent', '--value', '20', '--to', '2026-06-30', '--limit', '10')).code).toBe(0);
    await database.db.update(t.coupons).set({ usedCount: 4 }).where(eq(t.coupons.code, 'EDIT20'));
    expect(await broker('coupons', 'edit', 'edit20', '--to', '2026-09-30')).toEqual({ code: 0, out: 'Coupon EDIT20 is now valid 2026-03-15 to 2026-09-30, for 10 uses.', err: '' });
    expect((await broker('coupons', 'edit', 'EDIT20', '--limit', 'none')).out).toBe('Coupon EDIT20 is now valid 2026-03-15 to 2026-09-30, with no usage limit.');
    expect(await row('EDIT20')).toMatchObject({ validFrom: '2026-03-15', validTo: '2026-09-30', usageLimit: null, usedCount: 4, active: true });
    for (const [args, said] of [
      [['--limit', '3'], '--limit 3 is below the 4 uses EDIT20 has had.'],
      [['--from', '2026-10-01'], '--from (2026-10-01) must not be after --to (2026-09-30).'],
      [['--to', '30/09/2026'], '--to must be a date as YYYY-MM-DD, e.g. 2026-12-31 (got "30/09/2026").'],
      [[], 'Say what changes: --from, --to or --limit.'],
      [['--value', '5'], 'coupons edit changes --from, --to and --limit only (got --value).'],
    ] as const) {
      const run = await broker('coupons', 'edit', 'EDIT20', ...args);
      expect({ args, code: run.code, first: run.err.split('\n')[0] }).toEqual({ args, code: 2, first: said });
    }
    expect((await broker('coupons', 'edit', 'NOSUCH', '--to', '2026-12-31')).err.split('\n')[0]).toBe('No coupon has the code "NOSUCH".');
    expect(await row('EDIT20')).toMatchObject({ validTo: '2026-09-30', usageLimit: null });
  });
});

describe('the command line', () => {
  it.each<[string[], BrokerCommand]>([
    [['call-backs'], { kind: 'call-backs', json: false, status: null }],
    [['call-backs', '--json', '--status', 'quoted'], { kind: 'call-backs', json: true, status: 'quoted' }],
    [['call-backs', 'set', '7', '--status=closed', '--assignee', 'Maya'], { kind: 'call-backs-set', id: 7, change: { status: 'closed', assignee: 'Maya' } }],
    [['coupons'], { kind: 'coupons', json: false }],
    [['coupons', '--json'], { kind: 'coupons', json: true }],
    [['coupons', 'disable', 'X1'], { kind: 'coupons-disable', code: 'X1' }],
    [['coupons', 'add', '--code', 'A1B', '--value=5'], { kind: 'coupons-add', options: { code: 'A1B', value: '5' } }],
    [['backup', 'safar.tar.gz'], { kind: 'backup', file: 'safar.tar.gz' }],
    [['audit', '--json'], { kind: 'audit', json: true }],
    [['refunds', 'pay', 'SAF-1', '--fort-id=123'], { kind: 'refunds-pay', merchantReference: 'SAF-1', fortId: '123' }],
    [['policies', 'cancel', 'SFR-26-X', '--reason', 'other', '--note=Visa refused'], { kind: 'policies-cancel', request: { policyNumber: 'SFR-26-X', reason: 'other', note: 'Visa refused' } }],
    [['restore', '/backups/safar.tar.gz'], { kind: 'restore', file: '/backups/safar.tar.gz' }],
  ])('reads %j', (argv, expected) => {
    expect(parseBrokerArgs(argv)).toEqual(expected);
  });

  it.each<[string[], RegExp]>([
    [[], /No command given/],
    [['leads'], /Unknown command "leads"/],
    [['policies'], /policies takes cancel POLICY_NUMBER/],
    [['refunds', 'pay'], /refunds pay takes one merchant reference/],
    [['audit', '--csv'], /Unknown argument "--csv"/],
    [['coupons', '--csv'], /Unknown argument "--csv"/],
    [['call-backs', 'extra'], /Unknown argument "extra"/],
    [['coupons', 'disable'], /one coupon code/],
    [['coupons', 'disable', 'A', 'B'], /one coupon code/],
    [['coupons', 'add', '--colour', 'red'], /Unknown argument "--colour"/],
    [['coupons', 'add', '--code'], /--code needs a value/],
    [['coupons', 'add', '--code', '--type', 'fixed'], /--code needs a value/],
    [['coupons', 'add', '--code', 'A', '--code', 'B'], /--code is given twice/],
    [['backup'], /backup takes one file name/],
    [['restore', 'a.tar.gz', 'b.tar.gz'], /restore takes one file name/],
    [['backup', '--json'], /backup takes one file name/],
  ])('refuses %j with a message (the CLI adds the usage, exit 2)', (argv, expected) => {
    expect(parseBrokerArgs(argv)).toMatch(expected);
  });

  it('runBrokerArgs (the CLI and the admin endpoint alike) parses, runs and captures: text, --json parsed, refusals with the usage', async () => {
    const now = Date.parse(`${TODAY}T12:00:00Z`);
    const listed = await runBrokerArgs(database.db, ['coupons', '--json'], now);
    expect(listed).toMatchObject({ code: 0, err: '', command: { kind: 'coupons', json: true } });
    expect(listed.json).toEqual(JSON.parse(listed.out));
    expect(listed.json).toEqual(await listCoupons(database.db));

    const text = await runBrokerArgs(database.db, ['call-backs'], now);
    expect(text).toEqual({ code: 0, out: 'No open call-back requests.', err: '', json: null, command: { kind: 'call-backs', json: false, status: null } });

    const refused = await runBrokerArgs(database.db, ['coupons', 'remove', 'X'], now);
    expect(refused).toMatchObject({ code: 2, out: '', json: null, command: null });
    expect(refused.err).toBe(`Unknown argument "remove".\n\n${USAGE}`);

    const wrongInput = await runBrokerArgs(database.db, ['coupons', 'disable', 'NOSUCH'], now);
    expect(wrongInput).toMatchObject({ code: 2, out: '', json: null, command: { kind: 'coupons-disable' } });
    expect(wrongInput.err).toContain('No coupon has the code "NOSUCH"');
  });

  it('call-backs still list through the same runner', async () => {
    expect(await broker('call-backs')).toEqual({ code: 0, out: 'No open call-back requests.', err: '' });
  });
});
