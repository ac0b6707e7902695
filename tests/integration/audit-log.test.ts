import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBrokerArgs } from '../../src/server/admin/broker-commands';
import type { Database } from '../../src/server/db/client';
import * as t from '../../src/server/db/schema';
import { createTestDatabase } from '../support/test-db';

/**
 * The audit log (issue 36 item 3): every change made with the broker's commands (here through
 * runBrokerArgs, as the CLI and the admin endpoint run them) has its row, written in the change's
 * own transaction: who, when, what, which, before and after. A refused change writes none.
 * refunds.test.ts checks the rows of refunds pay and policies cancel.
 */

const NOW = Date.parse('2026-03-15T12:00:00Z');
const AS_RANIA = { actor: 'cli:rania', canSendRefunds: false };
let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const audit = async () => (await runBrokerArgs(database.db, ['audit', '--json'], NOW, AS_RANIA)).json as Record<string, unknown>[];

describe('npm run broker -- audit', () => {
  it('records coupons add and disable and settings set with who, when, what, which, before and after, newest first', async () => {
    expect((await runBrokerArgs(database.db, ['coupons', 'add', '--code', 'audit10', '--type', 'percent', '--value', '10'], NOW, AS_RANIA)).code).toBe(0);
    expect((await runBrokerArgs(database.db, ['settings', 'set', 'vat_percent', '12'], NOW + 1_000, AS_RANIA)).code).toBe(0);
    expect((await runBrokerArgs(database.db, ['coupons', 'disable', 'Audit10'], NOW + 2_000, { ...AS_RANIA, actor: 'cli:karim' })).code).toBe(0);

    const [disable, setting, add] = await audit();
    expect(add).toEqual({
      at: new Date(NOW).toISOString(),
      actor: 'cli:rania',
      action: 'coupons.add',
      target: 'AUDIT10',
      before: null,
      after: expect.objectContaining({ code: 'AUDIT10', type: 'percent', value: 10, active: true }) as unknown,
    });
    expect(setting).toEqual({ at: new Date(NOW + 1_000).toISOString(), actor: 'cli:rania', action: 'settings.set', target: 'vat_percent', before: { vat_percent: 11 }, after: { vat_percent: 12 } });
    expect(disable).toMatchObject({
      actor: 'cli:karim',
      action: 'coupons.disable',
      target: 'AUDIT10',
      before: expect.objectContaining({ code: 'AUDIT10', active: true }) as unknown,
      after: expect.objectContaining({ code: 'AUDIT10', active: false }) as unknown,
    });
    const table = await runBrokerArgs(database.db, ['audit'], NOW, AS_RANIA);
    expect(table.out.split('\n')[0]).toMatch(/^at\s+who\s+what\s+which\s+before\s+after$/);
    expect(table.out).toMatch(/cli:rania\s+settings\.set\s+vat_percent\s+\{"vat_percent":11\}\s+\{"vat_percent":12\}/);
  });

  it('a refused change writes no row, and neither does a list', async () => {
    const before = (await database.db.select().from(t.auditLog)).length;
    expect((await runBrokerArgs(database.db, ['coupons', 'disable', 'NOSUCH'], NOW, AS_RANIA)).code).toBe(2);
    expect((await runBrokerArgs(database.db, ['settings', 'set', 'vat_percent', '500'], NOW, AS_RANIA)).code).toBe(2);
    expect((await runBrokerArgs(database.db, ['coupons', 'add', '--code', 'SAVE25', '--type', 'fixed', '--value', '5'], NOW, AS_RANIA)).code).toBe(2);
    expect((await runBrokerArgs(database.db, ['mail', 'resend', 'SFR-26-NOSUCH00'], NOW, AS_RANIA)).code).toBe(2);
    expect((await runBrokerArgs(database.db, ['coupons'], NOW, AS_RANIA)).code).toBe(0);
    expect(await database.db.select().from(t.auditLog)).toHaveLength(before);
  });
});
