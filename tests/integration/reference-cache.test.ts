import { gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyInfoEndpoint, countriesEndpoint, vatEndpoint } from '../../src/contract/reference.endpoints';
import { newAdminToken } from '../../src/server/admin/admin-file';
import { ADMIN_BROKER_PATH } from '../../src/server/admin/admin.routes';
import { companyInfo, settings } from '../../src/server/db/schema';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * Reference data served from memory (issue 19, the server): answered with an ETag and as 304
 * to a caller that holds it, and dropped when the broker changes the data, through the real
 * admin path or, like another instance or psql on PostgreSQL, straight in the database.
 */

const TOKEN = newAdminToken();
/** How often the app under test asks the database whether reference data changed (as main.ts does). */
const CHECK_MS = 1000;
let clock = Date.now();
let app: TestApp;

beforeAll(async () => {
  app = await createTestApp({ admin: { token: TOKEN }, referenceCheckMs: CHECK_MS, now: () => clock });
});
afterAll(() => app.close());

let tick = 0;
/** A signed POST at the app's clock, each with its own nonce (two bodies alike in one millisecond would be a replay). */
const post = (path: string, body?: unknown, headers: Record<string, string> = {}) =>
  app.post(path, body, { nowMs: clock + (tick += 1), headers });

/** The broker CLI's command line run by the server, from a loopback socket with the admin token. */
async function broker(...argv: string[]) {
  const res = await app.app.request(
    ADMIN_BROKER_PATH,
    { method: 'POST', body: JSON.stringify({ argv }), headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` } },
    { incoming: { socket: { remoteAddress: '127.0.0.1' } } },
  );
  const body = (await res.json()) as { data: { exit_code: number; stdout: string; stderr: string } };
  expect(body.data).toMatchObject({ exit_code: 0 });
  return body.data;
}

const vat = async (headers: Record<string, string> = {}) => {
  const res = await post(vatEndpoint.path, undefined, headers);
  return { res, body: res.status === 200 ? ((await res.json()) as { data: { vat: number; stamp_fee: number } }) : null };
};

describe('ETag and 304', () => {
  it('answers reference data with an ETag, and 304 without a body to a caller that sends it back', async () => {
    const first = await vat();
    const etag = first.res.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]{27}"$/);

    const again = await vat({ 'if-none-match': etag! });
    expect(again.res.status).toBe(304);
    expect(again.res.headers.get('etag')).toBe(etag);
    expect(await again.res.text()).toBe('');

    // Another tag, or none: the whole answer, the same as the first.
    const other = await vat({ 'if-none-match': '"something-else"' });
    expect(other.res.status).toBe(200);
    expect(other.body).toEqual(first.body);
  });

  it('tags each language and body variant apart, and accepts its weak (gzip) tag back', async () => {
    const en = await post(countriesEndpoint.path, { lang: 'en', isDropdown: true });
    const ar = await post(countriesEndpoint.path, { lang: 'ar', isDropdown: true });
    const full = await post(countriesEndpoint.path, { lang: 'ar', isDropdown: false });
    const tags = [en, ar, full].map((res) => res.headers.get('etag'));
    expect(new Set(tags).size).toBe(3);

    const zipped = await post(countriesEndpoint.path, { lang: 'ar', isDropdown: true }, { 'accept-encoding': 'gzip' });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('etag')).toBe(`W/${tags[1]}`);
    // The bytes are the same answer, compressed once and kept.
    expect(JSON.parse(gunzipSync(Buffer.from(await zipped.arrayBuffer())).toString('utf8'))).toEqual(await ar.json());

    const notModified = await post(countriesEndpoint.path, { lang: 'ar', isDropdown: true }, { 'if-none-match': `W/${tags[1]}` });
    expect(notModified.status).toBe(304);
  });

  it('still checks the signature and the nonce before a 304: a replay is refused, not answered 304', async () => {
    const first = await vat();
    const etag = first.res.headers.get('etag')!;
    const nowMs = clock + (tick += 1);
    const replayed = () => app.post(vatEndpoint.path, undefined, { nowMs, headers: { 'if-none-match': etag } });
    expect((await replayed()).status).toBe(304);
    const again = await replayed();
    expect(again.status).toBe(401);
    expect(((await again.json()) as { data: { errors: unknown } }).data.errors).toEqual({ signature: 'nonce_reused' });
  });
});

describe('dropped when the broker changes it', () => {
  it('broker settings set vat_percent (the admin path): the next get-vat answers the new VAT under a new ETag', async () => {
    const before = await vat();
    expect(before.body!.data.vat).toBe(11);
    const etag = before.res.headers.get('etag')!;

    const run = await broker('settings', 'set', 'vat_percent', '12');
    expect(run.stdout).toBe('Set vat_percent to 12.');

    // No clock moved: the admin path itself made the server read the data's version again.
    const after = await vat({ 'if-none-match': etag });
    expect(after.res.status).toBe(200);
    expect(after.body!.data.vat).toBe(12);
    expect(after.res.headers.get('etag')).not.toBe(etag);
    await broker('settings', 'set', 'vat_percent', '11');
    expect((await vat()).body!.data.vat).toBe(11);
  });

  it('a change made straight in the database (another instance, psql) is served from memory until the next version check, then followed', async () => {
    const en = async () => ((await (await post(companyInfoEndpoint.path, { lang: 'en' })).json()) as { data: { name: string } }).data.name;
    const name = await en();
    await app.db.update(companyInfo).set({ name: 'Safar Brokers (renamed)' }).where(eq(companyInfo.lang, 'en'));

    // Within CHECK_MS of the last check, the copy in memory is answered: no query reads the table.
    expect(await en()).toBe(name);
    clock += CHECK_MS;
    expect(await en()).toBe('Safar Brokers (renamed)');
    await app.db.update(companyInfo).set({ name }).where(eq(companyInfo.lang, 'en'));
  });

  it('broker settings refuses an unknown setting or a value out of range, and changes nothing', async () => {
    for (const argv of [['settings', 'set', 'vat', '12'], ['settings', 'set', 'vat_percent', '101'], ['settings', 'set', 'vat_percent', '-1']]) {
      const res = await app.app.request(
        ADMIN_BROKER_PATH,
        { method: 'POST', body: JSON.stringify({ argv }), headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` } },
        { incoming: { socket: { remoteAddress: '127.0.0.1' } } },
      );
      const body = (await res.json()) as { data: { exit_code: number; stderr: string } };
      expect(body.data.exit_code).toBe(2);
      expect(body.data.stderr).toMatch(/Unknown setting|whole number/);
    }
    const [row] = await app.db.select().from(settings).where(eq(settings.key, 'vat_percent'));
    expect(row!.value).toBe(11);
  });
});
