import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { decodeCertificateQr } from '../../../tests/support/pdf-qr';
import { certificateFixture } from '../../../tests/support/certificate-fixture';
import { certificatePdf, verifyUrl } from './certificate-pdf';

/**
 * tests/support/pdf-qr.ts, the helper end-to-end tests use to read a downloaded certificate's QR
 * code: it finds the QR image in the PDF and decodes it to the URL a phone would open.
 */

const PUBLIC_URL = 'https://safar.test';

const data = (verifyCode: string) => certificateFixture({ verifyCode });

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
