import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadAtCheckout, pendingOrder, placeOrder, createPaymentTestApp } from '../../../tests/integration/payment-fixtures';
import type { LeadTestApp } from '../../../tests/integration/lead-fixtures';
import { writeBuiltPages } from '../../../tests/support/test-app';
import * as t from '../db/schema';
import { certificatePath } from '../policies/issue-policy';

/**
 * The hostile tester's finding: the request log wrote c.req.path, so it held the payments page's
 * key (/pay/<merchant reference>, which shows travellers' names and e-mail) and a certificate's
 * token (/policies/<token>/certificate.pdf, which shows passport numbers). These requests are
 * made against the whole app over a test database, with the SPA's static files served.
 */

const INDEX_HTML = '<!doctype html><html lang="en"><head><meta name="safar-config" content="" /></head><body><div id="root"></div></body></html>';
const ASSET = '/assets/index-Bx3k9aQ_.js';

let app: LeadTestApp;
let root: string;
let reference: string;
let uuid: string;
let token: string;
let paidUuid: string;
let paidReference: string;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'safar-request-log-'));
  mkdirSync(path.join(root, 'assets'));
  writeBuiltPages(root, () => INDEX_HTML);
  writeFileSync(path.join(root, ASSET), 'console.log("safar");');
  app = await createPaymentTestApp({ staticDir: root });
  // A pending order: its reference is the key of its payments page.
  const pending = await pendingOrder(app, { names: [{ first: 'Rania', last: 'Haddad' }] });
  reference = pending.order.merchantReference;
  uuid = pending.lead.uuid;
  // An order paid in full by coupon: its policy is issued at once, with a certificate token.
  const lead = await leadAtCheckout(app, { names: [{ first: 'Karim', last: 'Nassar' }] });
  const paid = await placeOrder(app, lead.uuid, { coupon: 'FREE100' });
  const [policy] = await app.db.select().from(t.policies).where(eq(t.policies.orderId, paid.id));
  token = policy!.downloadToken;
  paidUuid = lead.uuid;
  paidReference = paid.merchantReference;
});
afterAll(async () => {
  await app.close();
  rmSync(root, { recursive: true, force: true });
});

/** GETs `url` and returns its status and the request log lines it wrote. */
async function logOf(url: string) {
  const before = app.logs.length;
  const res = await app.app.request(url);
  await res.arrayBuffer();
  return { status: res.status, lines: app.logs.slice(before) };
}

describe('the request log never holds a payment reference, a certificate token, a uuid or a query', () => {
  it('logs the payments page by its route pattern, never its reference, for a pending order and an unknown one', async () => {
    const page = await logOf(`/pay/${reference}?lang=ar`);
    expect(page.status).toBe(200);
    expect(page.lines).toEqual([expect.objectContaining({ method: 'GET', path: '/pay/:merchantReference', status: 200 })]);

    // 404s under /pay/: an unknown reference, and a longer path (answered by the catch-all /pay/*).
    const unknown = await logOf('/pay/SAF42-MFX3K2A1-7QZC0P4M8R2D');
    expect(unknown.status).toBe(404);
    expect(unknown.lines).toEqual([expect.objectContaining({ path: '/pay/:merchantReference', status: 404 })]);
    const deeper = await logOf(`/pay/${reference}/receipt`);
    expect(deeper.status).toBe(404);
    expect(deeper.lines).toEqual([expect.objectContaining({ path: '/pay/*', status: 404 })]);

    const text = JSON.stringify([...page.lines, ...unknown.lines, ...deeper.lines]);
    for (const secret of [reference, 'SAF42-MFX3K2A1-7QZC0P4M8R2D', 'lang=ar', '?']) expect(text).not.toContain(secret);
  });

  it('logs the certificate download by its route pattern, never its token, and anything else under /policies as /policies/*', async () => {
    const pdf = await logOf(certificatePath(token));
    expect(pdf.status).toBe(200);
    expect(pdf.lines).toEqual([expect.objectContaining({ method: 'GET', path: '/policies/:token/certificate.pdf', status: 200 })]);

    const bare = await logOf(`/policies/${token}`);
    expect(bare.status).toBe(404);
    expect(bare.lines).toEqual([expect.objectContaining({ path: '/policies/*', status: 404 })]);

    const text = JSON.stringify([...pdf.lines, ...bare.lines]);
    expect(text).not.toContain(token);
  });

  it('logs SPA screens by their fixed path without the query, and an unknown path as /* (it could be anything)', async () => {
    const checkout = await logOf(`/checkout?uuid=${uuid}`);
    expect(checkout.status).toBe(200);
    expect(checkout.lines).toEqual([expect.objectContaining({ path: '/checkout', status: 200 })]);
    const thanks = await logOf(`/thank-you-p?uuid=${paidUuid}&merchant_reference=${paidReference}`);
    expect(thanks.lines).toEqual([expect.objectContaining({ path: '/thank-you-p' })]);
    // The uuid, a token or a reference typed into the path itself: the SPA answers, the log says /*.
    const pasted = [];
    for (const url of [`/${uuid}`, `/${token}`, `/checkout/${paidReference}`, '/rania.haddad@example.com']) pasted.push(await logOf(url));
    for (const { status, lines } of pasted) expect({ status, lines }).toEqual({ status: 200, lines: [expect.objectContaining({ path: '/*' })] });

    const text = JSON.stringify([...checkout.lines, ...thanks.lines, ...pasted.flatMap((entry) => entry.lines)]);
    for (const secret of [uuid, paidUuid, paidReference, token, 'rania', 'uuid=', '?']) expect(text).not.toContain(secret);
  });

  it('logs a build file that was served by its path, and a missing one under /assets/ as /*', async () => {
    expect((await logOf(ASSET)).lines).toEqual([expect.objectContaining({ path: ASSET, status: 200 })]);
    const missing = await logOf(`/assets/${token}.js`);
    expect(missing.status).toBe(404);
    expect(missing.lines).toEqual([expect.objectContaining({ path: '/*', status: 404 })]);
  });
});
