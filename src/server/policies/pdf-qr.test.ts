import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { decodeCertificateQr } from '../../../tests/support/pdf-qr';
import type { CertificateData } from './certificate-data';
import { certificatePdf, verifyUrl } from './certificate-pdf';

/**
 * tests/support/pdf-qr.ts, the helper end-to-end tests use to read a downloaded certificate's QR
 * code: it finds the QR image in the PDF and decodes it to the URL a phone would open.
 */

const PUBLIC_URL = 'https://safar.test';

const data = (verifyCode: string) =>
  ({
    policyId: 1,
    policyNumber: 'SFR-26-7K3Q9M2T',
    downloadToken: 'A'.repeat(43),
    verifyCode,
    issuedAt: new Date(Date.UTC(2026, 2, 15, 10, 30)),
    mailedAt: null,
    cancelled: null,
    leadId: 1,
    customerName: 'Rania Haddad',
    email: 'rania@example.com',
    order: { merchantReference: 'SAF42-MFX3K2A1-7QZC0P4M8R2D', lang: 'en', totalCents: 1_000, discountCents: 0, couponCode: null },
    quoteReference: 'QR-2026-0042',
    pageToken: 'b'.repeat(64),
    insurer: { nameEn: 'Levant Shield (demo)', nameAr: 'درع المشرق (تجريبي)', assistancePhone: '+961 1 555 712' },
    plan: { nameEn: 'Basic', nameAr: 'أساسية', coverageEn: 'Standard', coverageAr: 'عادية', medicalLimitUsd: 30_000, schengenVisaCompliant: false, family: false },
    addons: [],
    price: { planCents: 900, addonsCents: 0, discountCents: 0, couponCode: null, vatPercent: 11, vatCents: 100, stampCents: 0, totalCents: 1_000 },
    trip: { tripType: 1, startDate: '2026-04-01', endDate: '2026-04-10', days: 10, direction: 'outbound', destinations: ['Turkey'], destinationsAr: ['تركيا'], source: 'Lebanon', toSchengenArea: false },
    travellers: [{ firstName: 'Rania', middleName: null, lastName: 'Haddad', dob: '1988-06-01', passport: 'LR1234567', nationality: null }],
    broker: { name: 'Safar', address: '', email: '', phone: '', whatsapp: '', disclaimer: '' },
  }) satisfies CertificateData;

/** A PDF drawn by PDFKit with the given drawing. */
function pdfWith(draw: (doc: PDFKit.PDFDocument) => void): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4' });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  draw(doc);
  doc.end();
  return done;
}

describe('decodeCertificateQr', () => {
  it("decodes the certificate's QR code, English and Arabic, to its verification URL", async () => {
    for (const [lang, code] of [
      ['en', '3F9A0C71B2D4E8A6'],
      ['ar', '00FF00FF00FF00FF'],
    ] as const) {
      const pdf = await certificatePdf(data(code), PUBLIC_URL, lang);
      await expect(decodeCertificateQr(pdf)).resolves.toBe(verifyUrl(PUBLIC_URL, code));
      await expect(decodeCertificateQr(new Uint8Array(pdf))).resolves.toBe(`https://safar.test/verify/${code}`);
    }
  });

  it('says so when the PDF has no image, or no image that is a QR code', async () => {
    await expect(decodeCertificateQr(await pdfWith((doc) => doc.text('No QR code here')))).rejects.toThrow('the PDF has no image');
    // A grey square: an image, not a QR code.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAAAAAA6mKC9AAAAJklEQVR4AV3BsQEAAAiAIPPyTm9OmOWTkJCQkJCQkJCQkJCQkJA4mZAAoBlqRiIAAAAASUVORK5CYII=', 'base64');
    await expect(decodeCertificateQr(await pdfWith((doc) => doc.image(png, 50, 50, { width: 80 })))).rejects.toThrow('no QR code in the PDF');
  });
});
