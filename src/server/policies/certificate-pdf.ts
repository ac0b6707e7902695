import QRCode from 'qrcode';
import type { Language } from '../../contract/endpoint';
import { arabicFonts } from './certificate-fonts';
import { arabicPen, englishPen, pdfText, type Pen } from './certificate-pen';
import { CERTIFICATE_WORDS, SCHENGEN_STATEMENTS, type CertificateWords } from './certificate-texts';
import { pdfKit } from './pdfkit-lazy';
import { priceLines, type PriceLine } from '../orders/price-lines';
import { schengenStatementApplies, type CertificateData } from './certificate-data';
import { loadBidi, ltr } from './pdf-rtl';

export { pdfText } from './certificate-pen';
export { longDate, usdText } from './certificate-texts';

/**
 * The policy certificate (RULINGS 21), drawn by PDFKit from CertificateData, in English or in
 * Arabic (issue 37 item 3). English is what embassies and insurers abroad ask for, and what the
 * policy mail attaches; the Arabic one is the same document laid out right to left (the
 * customer's policy page offers both). Names are saved in Latin letters at review (nameSchema)
 * and stay so in Arabic. The info dictionary is fixed (Title, Author, CreationDate = the
 * policy's issue time), so a policy always renders the same bytes in each language.
 */

const BRAND = '#14507a';
const INK = '#1a2233';
const MUTED = '#5a6478';
const RULE = '#d5dbe3';
/** A cancelled policy's mark: a red that reads on paper and in grey print (contrast with white over 5:1). */
const CANCELLED_RED = '#b3261e';
const LEFT = 50;
const WIDTH = 495;
/** The QR code's side, top right under the band (top left in Arabic). */
const QR_SIZE = 78;
const QR_TOP = 92;
/** The broker's contact ends this far above the page's foot, in the bottom margin. */
const FOOTER_BOTTOM = 24;

/** The statement embassies look for on a Schengen visa application. */
export const SCHENGEN_STATEMENT = SCHENGEN_STATEMENTS.en;

/** The amount line: what the order charged, or that a 100 % coupon left nothing to pay. */
export function amountPaidText(order: CertificateData['order']): string {
  return CERTIFICATE_WORDS.en.amountPaid(order);
}

export const passportName = (traveller: CertificateData['travellers'][number]) =>
  [traveller.firstName, traveller.middleName, traveller.lastName].filter((part) => part && part.trim()).join(' ');

/**
 * Where a certificate's QR code and printed code lead: the public verification page (issue 37
 * item 4). The same from either language's certificate: the page answers in the language of
 * whoever scans it (Accept-Language).
 */
export const verifyUrl = (publicUrl: string, code: string) => `${publicUrl}/verify/${code}`;

/** "3F9A-0C71-B2D4-E8A6": the verification code as printed, in groups a person reads out. */
export const printedVerifyCode = (code: string) => code.match(/.{1,4}/g)!.join('-');

/** What one certificate is drawn with: the document, its pen (the language's fonts and direction) and words. */
interface Sheet {
  doc: PDFKit.PDFDocument;
  pen: Pen;
  words: CertificateWords;
}

/**
 * Renders the certificate in `lang`; resolves with the PDF's bytes. The Arabic one embeds its
 * font (read on the first Arabic certificate, certificate-fonts.ts).
 */
export async function certificatePdf(data: CertificateData, publicUrl: string, lang: Language = 'en'): Promise<Buffer> {
  const PDFDocument = await pdfKit();
  const fonts = lang === 'ar' ? (await Promise.all([arabicFonts(), loadBidi()]))[0] : null;
  const words = CERTIFICATE_WORDS[lang];
  // The info dictionary takes any text (UTF-16); the English one keeps to what its pages can print.
  const info = fonts ? (text: string) => text : pdfText;
  const doc = new PDFDocument({
    size: 'A4',
    margin: LEFT,
    ...(fonts ? { lang: 'ar' } : {}),
    info: {
      Title: info(words.documentTitle(data.policyNumber)),
      Author: 'Safar',
      Subject: info(`${words.insurerName(data)} - ${words.planName(data)}`),
      CreationDate: data.issuedAt,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const pen = fonts ? arabicPen(doc, fonts, LEFT, WIDTH) : englishPen(doc);
  const sheet: Sheet = { doc, pen, words };
  const { labels } = words;

  header(sheet, data);
  // A long list of travellers runs onto more pages: each says whose certificate it continues.
  doc.on('pageAdded', () => {
    pen.font('regular', 8.5).fillColor(MUTED);
    pen.text(words.continued(data.policyNumber), LEFT, 30, { width: WIDTH });
    doc.y = LEFT;
  });
  pen.font('bold', 20).fillColor(INK);
  pen.text(words.title, LEFT, 110, { width: WIDTH - QR_SIZE - 40 });
  pen.font('regular', 11).fillColor(MUTED);
  pen.text(words.policyNumberLine(data.policyNumber), LEFT, doc.y + 2, { width: WIDTH - QR_SIZE - 40 });
  const underTitle = doc.y;
  await verificationMark(sheet, data.verifyCode, publicUrl);
  // The first thing a traveller in trouble looks for: the insurer's 24/7 line, beside the QR code.
  if (data.insurer.assistancePhone && !data.cancelled) assistanceBox(sheet, data, underTitle + 8);
  doc.y += 6;
  if (data.cancelled) cancelledBanner(sheet, words.cancelledBanner(data.cancelled.at, data.cancelled.reason));

  const latin = words.latin;
  facts(sheet, [
    [labels.policyNumber, latin(data.policyNumber)],
    [labels.issueDate, words.date(data.issuedAt.toISOString().slice(0, 10))],
    ...(data.cancelled ? ([[labels.status, words.cancelledStatus(data.cancelled.at)]] as [string, string][]) : []),
    [labels.insurer, words.insurerName(data)],
    [labels.plan, words.plan(data)],
    [labels.quoteReference, latin(data.quoteReference)],
    [labels.tripType, words.tripType(data.trip.tripType)],
    [labels.period, words.period(data.trip)],
    [labels.travel, words.route(data.trip)],
    [labels.travellers, String(data.travellers.length)],
    [labels.medicalLimit, words.medicalLimit(data.plan.medicalLimitUsd)],
    [labels.amountPaid, words.amountPaid(data.order)],
    [labels.paymentReference, latin(data.order.merchantReference)],
  ]);

  // What each add-on bought covers, and up to how much per traveller.
  if (data.addons.length > 0) {
    heading(sheet, words.addonsHeading);
    twoColumns(
      sheet,
      data.addons.map((addon) => ({ label: words.addonName(addon), value: words.addonLimit(addon.limitUsd), total: false })),
      { labelWidth: 250 },
    );
  }

  // What was paid for, line by line: the plan, each add-on bought, the discount and its coupon,
  // VAT and the stamp fee add up to the total to the cent (price-lines.ts).
  heading(sheet, words.premiumHeading);
  receipt(sheet, priceLines(data, lang, pen.rtl ? { wrapCode: ltr } : {}));

  heading(sheet, words.travellersHeading);
  travellersTable(sheet, data.travellers);

  if (schengenStatementApplies(data)) {
    heading(sheet, words.schengenHeading, boxHeight(sheet, words.schengenStatement));
    box(sheet, words.schengenStatement);
  }

  footer(sheet, data.broker);
  doc.end();
  return done;
}

function header({ doc, pen, words }: Sheet, data: CertificateData) {
  doc.save().rect(0, 0, doc.page.width, 80).fill(BRAND).restore();
  pen.font('bold', 24).fillColor('#ffffff');
  pen.text(words.brand, LEFT, 26, { width: 200 });
  pen.font('regular', 9);
  pen.text(data.broker.name, LEFT + 200, 30, { width: WIDTH - 200, align: 'right', base: 'auto' });
  pen.text(words.tagline, LEFT + 200, doc.y + 2, { width: WIDTH - 200, align: 'right' });
}

/**
 * The QR code an embassy scans, top right under the band, with its code printed under it: both
 * open /verify/<code>, which says whether the policy is valid (issue 37 item 4). The facts then
 * start below it. The QR code is a PNG image (tests/support/pdf-qr.ts reads it back).
 */
async function verificationMark({ doc, pen, words }: Sheet, code: string, publicUrl: string) {
  const x = doc.page.width - LEFT - QR_SIZE;
  const png = await QRCode.toBuffer(verifyUrl(publicUrl, code), { type: 'png', errorCorrectionLevel: 'M', margin: 1, width: 312 });
  doc.image(png, pen.x(x, QR_SIZE), QR_TOP, { width: QR_SIZE, height: QR_SIZE });
  pen.font('regular', 7.5).fillColor(MUTED);
  pen.text(words.checkThisPolicy, x - 30, QR_TOP + QR_SIZE + 2, { width: QR_SIZE + 30, align: 'right' });
  pen.font('code', 8).fillColor(INK);
  pen.text(printedVerifyCode(code), x - 30, doc.y, { width: QR_SIZE + 30, align: 'right', base: 'ltr' });
  doc.y = Math.max(doc.y, QR_TOP + QR_SIZE + 26);
}

/**
 * The insurer's 24/7 emergency line in a band of the brand's colour under the title, the number
 * large at its far end: what a traveller in trouble looks for first. Not on a cancelled policy,
 * which gives no cover.
 */
function assistanceBox({ doc, pen, words }: Sheet, data: CertificateData, top: number) {
  const width = WIDTH - QR_SIZE - 40;
  const number = words.latin(data.insurer.assistancePhone);
  pen.font('bold', 16);
  const numberWidth = Math.min(doc.widthOfString(data.insurer.assistancePhone) + 4, width / 2);
  const numberHeight = pen.heightOf(number, { width: numberWidth });
  const labelWidth = width - numberWidth - 36;
  pen.font('regular', 9);
  const labelHeight = pen.heightOf(words.assistance, { width: labelWidth }) + pen.heightOf(words.insurerName(data), { width: labelWidth });
  const height = Math.max(labelHeight, numberHeight) + 14;
  doc.save().roundedRect(pen.x(LEFT, width), top, width, height, 6).fill(BRAND).restore();
  pen.font('regular', 9).fillColor('#ffffff');
  pen.text(words.assistance, LEFT + 12, top + (height - labelHeight) / 2, { width: labelWidth });
  pen.font('bold', 9);
  pen.text(words.insurerName(data), LEFT + 12, doc.y, { width: labelWidth });
  pen.font('bold', 16);
  pen.text(number, LEFT + width - 12 - numberWidth, top + (height - numberHeight) / 2, { width: numberWidth, align: 'right' });
  doc.y = Math.max(top + height, QR_TOP + QR_SIZE + 26);
}

/** Starts a new page when fewer than `height` points are left above the bottom margin; says whether it did. */
function ensureRoom(doc: PDFKit.PDFDocument, height: number): boolean {
  if (doc.y + height <= doc.page.height - doc.page.margins.bottom) return false;
  doc.addPage();
  return true;
}

/** A section's title, on the page where its first rows (`keep` points of them) fit. */
function heading({ doc, pen }: Sheet, title: string, keep = 30) {
  ensureRoom(doc, 30 + keep);
  doc.moveDown(0.6);
  pen.font('bold', 13).fillColor(BRAND);
  pen.text(title, LEFT, doc.y, { width: WIDTH });
  doc.moveDown(0.4);
}

const rule = (doc: PDFKit.PDFDocument, width = 0.5, color = RULE) =>
  doc.save().moveTo(LEFT, doc.y).lineTo(LEFT + WIDTH, doc.y).lineWidth(width).strokeColor(color).stroke().restore();

/** Label/value rows with a light rule between them. */
function facts({ doc, pen }: Sheet, rows: [string, string][]) {
  for (const [label, value] of rows) {
    pen.font('bold', 10);
    const height = Math.max(pen.heightOf(value, { width: 330 }), 12) + 6;
    ensureRoom(doc, height);
    const y = doc.y;
    pen.font('regular', 10).fillColor(MUTED);
    pen.text(label, LEFT, y + 3, { width: 150 });
    pen.font('bold', 10).fillColor(INK);
    pen.text(value, LEFT + 165, y + 3, { width: 330 });
    doc.y = y + height;
    rule(doc);
  }
}

interface Row {
  label: string;
  value: string;
  total: boolean;
}

/** Rows of a label and a value at the far end (the receipt, the add-on covers); a total in bold under a rule. */
function twoColumns({ doc, pen }: Sheet, rows: Row[], { labelWidth }: { labelWidth: number }) {
  for (const { label, value, total } of rows) {
    pen.font(total ? 'bold' : 'regular', 9.5);
    const height = Math.max(pen.heightOf(label, { width: labelWidth }), 11) + 5;
    ensureRoom(doc, height);
    const y = doc.y;
    if (total) rule(doc, 1, INK);
    doc.fillColor(total ? INK : MUTED);
    pen.text(label, LEFT, y + 3, { width: labelWidth });
    pen.font('bold', 9.5).fillColor(INK);
    pen.text(value, LEFT + labelWidth, y + 3, { width: WIDTH - labelWidth, align: 'right' });
    doc.y = y + height;
    if (!total) rule(doc);
  }
}

/** The receipt: a label and an amount to the cent per line, the total in bold under a rule. */
function receipt(sheet: Sheet, lines: PriceLine[]) {
  twoColumns(
    sheet,
    lines.map((line) => ({ label: line.label, value: sheet.words.amount(line.cents, line.kind === 'discount'), total: line.kind === 'total' })),
    { labelWidth: 330 },
  );
}

/** The travellers' columns; in Arabic the date of birth ("23 تشرين الثاني 1990") takes 15 points from the name. */
const COLUMN_WIDTHS = { en: [20, 175, 90, 105, 105], ar: [20, 160, 105, 105, 105] } as const;

/** A row of the travellers' table (bold: its header); a row that starts a page has the header drawn over it again. */
function tableRow(sheet: Sheet, cells: string[], bold: boolean) {
  const { doc, pen } = sheet;
  const widths = COLUMN_WIDTHS[pen.rtl ? 'ar' : 'en'];
  pen.font(bold ? 'bold' : 'regular', 9.5);
  const height = Math.max(...cells.map((cell, index) => pen.heightOf(cell, { width: widths[index]! - 6 }))) + 10;
  if (ensureRoom(doc, height) && !bold) {
    tableRow(sheet, sheet.words.columns, true);
    pen.font('regular', 9.5);
  }
  const y = doc.y;
  if (bold) doc.save().rect(LEFT, y, WIDTH, height).fill('#eef3f8').restore();
  let x = LEFT;
  doc.fillColor(bold ? BRAND : INK);
  cells.forEach((cell, index) => {
    pen.text(cell, x + 3, y + 5, { width: widths[index]! - 6 });
    x += widths[index]!;
  });
  doc.y = y + height;
  rule(doc);
}

function travellersTable(sheet: Sheet, travellers: CertificateData['travellers']) {
  const { words } = sheet;
  tableRow(sheet, words.columns, true);
  travellers.forEach((traveller, index) => {
    tableRow(
      sheet,
      [String(index + 1), words.latin(passportName(traveller)), words.date(traveller.dob), words.latin(traveller.passport ?? '-'), words.nationality(traveller.nationality)],
      false,
    );
  });
}

function boxHeight({ pen }: Sheet, text: string) {
  pen.font('regular', 10);
  return pen.heightOf(text, { width: WIDTH - 24 }) + 20;
}

function box(sheet: Sheet, text: string) {
  const { doc, pen } = sheet;
  const height = boxHeight(sheet, text);
  ensureRoom(doc, height);
  const y = doc.y;
  doc.save().roundedRect(LEFT, y, WIDTH, height, 6).lineWidth(1).fillAndStroke('#f1f7fc', BRAND).restore();
  doc.fillColor(INK);
  pen.text(text, LEFT + 12, y + 10, { width: WIDTH - 24 });
  doc.y = y + height;
}

/** The broker's contact, at the bottom of the last page (the company's details as saved, in English). */
function footer({ doc, pen, words }: Sheet, broker: CertificateData['broker']) {
  const lines = [broker.name, broker.address, words.contact(broker), broker.disclaimer].filter((line) => line.trim());
  pen.font('regular', 8.5);
  const height = lines.reduce((sum, line) => sum + pen.heightOf(line, { width: WIDTH, base: 'auto' }) + 2, 0) + 12;
  // It may run into the bottom margin, down to FOOTER_BOTTOM: PDFKit would start a page there, so the margin is lifted meanwhile.
  const bottom = doc.page.height - FOOTER_BOTTOM;
  if (doc.y + 10 + height > bottom) doc.addPage();
  const margin = doc.page.margins.bottom;
  doc.page.margins.bottom = 0;
  let y = bottom - height;
  doc.y = y;
  rule(doc);
  y += 8;
  lines.forEach((line, index) => {
    pen.font(index === 0 ? 'bold' : 'regular', 8.5).fillColor(index === 0 ? INK : MUTED);
    pen.text(line, LEFT, y, { width: WIDTH, base: 'auto' });
    y = doc.y + 2;
  });
  doc.page.margins.bottom = margin;
}

/**
 * A cancelled policy's mark (issue 36 item 5): a red box under the title saying the policy is
 * CANCELLED, when and why, so a printed copy can never pass for cover.
 */
function cancelledBanner({ doc, pen }: Sheet, text: string) {
  const top = doc.y;
  pen.font('bold', 13);
  const height = pen.heightOf(text, { width: WIDTH - 20 }) + 16;
  doc.save().lineWidth(2).strokeColor(CANCELLED_RED).rect(LEFT, top, WIDTH, height).stroke().restore();
  doc.fillColor(CANCELLED_RED);
  pen.text(text, LEFT + 10, top + 8, { width: WIDTH - 20 });
  doc.y = top + height + 10;
  doc.x = LEFT;
}
