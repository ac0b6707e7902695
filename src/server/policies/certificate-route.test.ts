import { eq } from 'drizzle-orm';
import { getMeta } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../../tests/support/test-app';
import { decodeCertificateQr } from '../../../tests/support/pdf-qr';
import type { LeadTestApp } from '../../../tests/integration/lead-fixtures';
import { apsResponse, createPaymentTestApp, pendingOrder, postNotice } from '../../../tests/integration/payment-fixtures';
import * as t from '../db/schema';
import { loadCertificateByToken } from './certificate-data';
import { ARABIC_FONT_NAME } from './certificate-fonts';
import { certificatePdf } from './certificate-pdf';
import { certificatePath } from './issue-policy';

/**
 * GET /policies/<token>/certificate.pdf in both languages (issue 37 item 3), over a policy paid
 * through the gateway's return on a throwaway database: `?lang=ar` answers the Arabic
 * certificate, anything else the English one; and the QR code of each opens the verification
 * page the server answers for that policy.
 */

let app: LeadTestApp;
let token: string;
let policyNumber: string;

beforeAll(async () => {
  app = await createPaymentTestApp({ config: testConfig({ publicUrl: 'http://safar.test' }) });
  const { order } = await pendingOrder(app, { names: [{ first: 'Rania', last: 'Haddad' }], addon: true, lang: 'ar' });
  const paid = await postNotice(app, 'return', apsResponse(order));
  if (paid.status !== 303) throw new Error(`the gateway's return answered ${paid.status}, not 303`);
  const [policy] = await app.db.select().from(t.policies).where(eq(t.policies.orderId, order.id));
  token = policy!.downloadToken;
  policyNumber = policy!.policyNumber;
});
afterAll(() => app.close());

const pdfOf = async (res: Response) => Buffer.from(await res.arrayBuffer());

describe('GET /policies/<token>/certificate.pdf', () => {
  it('?lang=ar answers the Arabic certificate as an attachment named …-ar.pdf, private and not indexed', async () => {
    const res = await app.app.request(`${certificatePath(token)}?lang=ar`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${policyNumber}-ar.pdf"`);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    const pdf = await pdfOf(res);
    expect(pdf.toString('latin1')).toMatch(new RegExp(`/BaseFont /[A-Z]{6}\\+${ARABIC_FONT_NAME}-Regular`));
    expect((await getMeta(new Uint8Array(pdf))).info.Title).toBe(`شهادة تأمين السفر ${policyNumber}`);
    // The very document certificatePdf draws in Arabic for this policy.
    const data = await loadCertificateByToken(app.db, token);
    expect(pdf.equals(await certificatePdf(data!, 'http://safar.test', 'ar'))).toBe(true);
  });

  it('no lang, lang=en or any other answers the English certificate, named after the policy', async () => {
    for (const query of ['', '?lang=en', '?lang=fr', '?lang=AR']) {
      const res = await app.app.request(`${certificatePath(token)}${query}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${policyNumber}.pdf"`);
      const pdf = await pdfOf(res);
      expect(pdf.toString('latin1')).not.toContain(ARABIC_FONT_NAME);
      expect((await getMeta(new Uint8Array(pdf))).info.Title).toBe(`Travel insurance certificate ${policyNumber}`);
    }
  });

  it('an unknown token is still a plain 404 in either language', async () => {
    const changed = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const query of ['', '?lang=ar']) {
      const res = await app.app.request(`${certificatePath(changed)}${query}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    }
  });

  it("each language's QR code opens /verify/<code>, which the server answers for this policy", async () => {
    for (const query of ['', '?lang=ar']) {
      const url = new URL(await decodeCertificateQr(await pdfOf(await app.app.request(`${certificatePath(token)}${query}`))));
      expect(url.origin).toBe('http://safar.test');
      expect(url.pathname).toMatch(/^\/verify\/[0-9A-F]{16}$/);
      const res = await app.app.request(`${url.pathname}${url.search}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain(policyNumber);
    }
  });
});
