import QRCode from 'qrcode';
import { dollarsAndCents } from '../../contract/money';
import { pdfKit } from './pdfkit-lazy';
import { priceLines, type PriceLine } from '../orders/price-lines';
import { schengenStatementApplies, type CertificateData } from './certificate-data';

/**
 * The policy certificate (RULINGS 21), drawn by PDFKit from CertificateData. It is in English
 * whatever the customer's language: embassies and insurers abroad ask for it in English, and
 * names are saved in Latin letters at review (nameSchema). The info dictionary is fixed (Title,
 * Author, CreationDate = the policy's issue time), so a policy always renders the same bytes.
 */

const BRAND = '#14507a';
const INK = '#1a2233';
const MUTED = '#5a6478';
const RULE = '#d5dbe3';
/** A cancelled policy's mark: a red that reads on paper and in grey print (contrast with white over 5:1). */
const CANCELLED_RED = '#b3261e';
const LEFT = 50;
const WIDTH = 495;

/** The statement embassies look for on a Schengen visa application. */
export const SCHENGEN_STATEMENT =
  'This policy meets the requirements for a Schengen visa: it covers emergency medical expenses, hospital treatment and ' +
  'repatriation of at least EUR 30,000, is valid in every Schengen state and covers the whole stay.';

/**
 * WinAnsi, the encoding of PDFKit's built-in Helvetica: Latin-1 and the Windows-1252 extras
 * (curly quotes, dashes, €). Anything else would print as unrelated glyphs.
 */
const WIN_ANSI_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const encodable = (char: string) => {
  const code = char.codePointAt(0)!;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRAS.has(char);
};

/**
 * Text as Helvetica can print it. Review names are Latin only, but country and plan names come
 * from data a broker edits: a letter with an accent Helvetica lacks loses the accent (ő → o),
 * and any other character becomes "?", so nothing prints as unrelated glyphs or breaks the PDF.
 */
export function pdfText(text: string): string {
  let out = '';
  for (const char of text.normalize('NFC')) {
    if (encodable(char)) out += char;
    else if (/\s/.test(char)) out += ' ';
    else {
      const base = char.normalize('NFD').replace(/\p{M}/gu, '');
      out += base.length > 0 && [...base].every(encodable) ? base : '?';
    }
  }
  return out;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "2026-04-01" → "1 April 2026" (calendar dates, no time zone). */
export function longDate(iso: string): string {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  return `${day} ${MONTHS[month - 1] ?? ''} ${year}`;
}

/** 14763 → "USD 147.63": what was paid, to the cent (RULINGS 26). */
export function usdText(cents: number): string {
  return `USD ${dollarsAndCents(cents)}`;
}

/** The amount line: what the order charged, or that a 100 % coupon left nothing to pay. */
export function amountPaidText(order: CertificateData['order']): string {
  if (order.totalCents === 0) return order.couponCode ? `Fully discounted (coupon ${order.couponCode})` : 'Fully discounted';
  return `${usdText(order.totalCents)} (VAT included)`;
}

export const passportName = (traveller: CertificateData['travellers'][number]) =>
  [traveller.firstName, traveller.middleName, traveller.lastName].filter((part) => part && part.trim()).join(' ');

/** Renders the certificate; resolves with the PDF's bytes. */
/** Where a certificate's QR code and printed code lead: the public verification page (issue 37 item 4). */
export const verifyUrl = (publicUrl: string, code: string) => `${publicUrl}/verify/${code}`;

/** "3F9A-0C71-B2D4-E8A6": the verification code as printed, in groups a person reads out. */
export const printedVerifyCode = (code: string) => code.match(/.{1,4}/g)!.join('-');

export async function certificatePdf(data: CertificateData, publicUrl: string): Promise<Buffer> {
  const PDFDocument = await pdfKit();
  const doc = new PDFDocument({
    size: 'A4',
    margin: LEFT,
    info: {
      Title: pdfText(`Travel insurance certificate ${data.policyNumber}`),
      Author: 'Safar',
      Subject: pdfText(`${data.insurer.nameEn} - ${data.plan.nameEn}`),
      CreationDate: data.issuedAt,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  header(doc, data);
  // A long list of travellers runs onto more pages: each says whose certificate it continues.
  doc.on('pageAdded', () => {
    doc.fillColor(MUTED).font('Helvetica').fontSize(8.5).text(pdfText(`Travel insurance certificate ${data.policyNumber} (continued)`), LEFT, 30, { width: WIDTH });
    doc.y = LEFT;
  });
  doc.fillColor(INK).font('Helvetica-Bold').fontSize(20).text('Travel insurance certificate', LEFT, 110);
  doc.fillColor(MUTED).font('Helvetica').fontSize(11).text(pdfText(`Policy number ${data.policyNumber}`), LEFT, doc.y + 2);
  await verificationMark(doc, data.verifyCode, publicUrl);
  doc.moveDown(0.6);
  if (data.cancelled) cancelledBanner(doc, data.cancelled);

  const trip = data.trip;
  const route =
    trip.direction === 'outbound' ? `From Lebanon to ${trip.destinations.join(', ')}` : `From ${trip.source} to Lebanon`;
  facts(doc, [
    ['Policy number', data.policyNumber],
    ['Issue date', longDate(data.issuedAt.toISOString().slice(0, 10))],
    ...(data.cancelled ? ([['Status', `CANCELLED on ${longDate(data.cancelled.at.toISOString().slice(0, 10))}: no cover`]] as [string, string][]) : []),
    ['Insurer', data.insurer.nameEn],
    ['Plan', `${data.plan.nameEn} (${data.plan.coverageEn} cover)`],
    ['Quote reference', data.quoteReference],
    ['Trip type', trip.tripType === 2 ? 'Annual multi-trip' : 'Single trip'],
    ['Period of cover', `${longDate(trip.startDate)} to ${longDate(trip.endDate)} (${trip.days} ${trip.days === 1 ? 'day' : 'days'})`],
    ['Travel', route],
    ['Travellers', String(data.travellers.length)],
    ['Medical limit', `USD ${data.plan.medicalLimitUsd.toLocaleString('en-US')} per traveller`],
    ['Amount paid', amountPaidText(data.order)],
    ['Payment reference', data.order.merchantReference],
  ]);

  // What was paid for, line by line: the plan, each add-on bought, the discount and its coupon,
  // VAT and the stamp fee add up to the total to the cent (price-lines.ts).
  heading(doc, 'Premium paid');
  receipt(doc, priceLines(data, 'en'));

  heading(doc, 'Insured travellers');
  travellersTable(doc, data.travellers);

  if (schengenStatementApplies(data)) {
    heading(doc, 'Schengen visa');
    box(doc, SCHENGEN_STATEMENT);
  }

  footer(doc, data.broker);
  doc.end();
  return done;
}

function header(doc: PDFKit.PDFDocument, data: CertificateData) {
  doc.save().rect(0, 0, doc.page.width, 80).fill(BRAND).restore();
  doc.fillColor('#ffffff').font('Helvetica-Bold').fontSize(24).text('Safar', LEFT, 26, { lineBreak: false });
  doc
    .font('Helvetica')
    .fontSize(9)
    .text(pdfText(data.broker.name), LEFT + 200, 30, { width: WIDTH - 200, align: 'right' })
    .text('Travel insurance', LEFT + 200, doc.y + 2, { width: WIDTH - 200, align: 'right' });
}

/**
 * The QR code an embassy scans, top right under the band, with its code printed under it: both
 * open /verify/<code>, which says whether the policy is valid (issue 37 item 4). The facts then
 * start below it.
 */
async function verificationMark(doc: PDFKit.PDFDocument, code: string, publicUrl: string) {
  const size = 78;
  const x = doc.page.width - LEFT - size;
  const png = await QRCode.toBuffer(verifyUrl(publicUrl, code), { type: 'png', errorCorrectionLevel: 'M', margin: 1, width: 312 });
  doc.image(png, x, 92, { width: size, height: size });
  doc.fillColor(MUTED).font('Helvetica').fontSize(7.5).text('Check this policy:', x - 30, 92 + size + 2, { width: size + 30, align: 'right' });
  doc.fillColor(INK).font('Courier-Bold').fontSize(8).text(printedVerifyCode(code), x - 30, doc.y, { width: size + 30, align: 'right' });
  doc.y = Math.max(doc.y, 92 + size + 26);
}

/** Starts a new page when fewer than `height` points are left above the bottom margin. */
function ensureRoom(doc: PDFKit.PDFDocument, height: number) {
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
}

function heading(doc: PDFKit.PDFDocument, title: string) {
  ensureRoom(doc, 60);
  doc.moveDown(0.7).fillColor(BRAND).font('Helvetica-Bold').fontSize(13).text(title, LEFT);
  doc.moveDown(0.4);
}

/** Label/value rows with a light rule between them. */
function facts(doc: PDFKit.PDFDocument, rows: [string, string][]) {
  for (const [label, raw] of rows) {
    const value = pdfText(raw);
    doc.font('Helvetica-Bold').fontSize(10);
    const height = Math.max(doc.heightOfString(value, { width: 330 }), 12) + 6;
    ensureRoom(doc, height);
    const y = doc.y;
    doc.fillColor(MUTED).font('Helvetica').fontSize(10).text(label, LEFT, y + 3, { width: 150 });
    doc.fillColor(INK).font('Helvetica-Bold').fontSize(10).text(value, LEFT + 165, y + 3, { width: 330 });
    doc.y = y + height;
    doc.save().moveTo(LEFT, doc.y).lineTo(LEFT + WIDTH, doc.y).lineWidth(0.5).strokeColor(RULE).stroke().restore();
  }
}

/** The receipt: a label and an amount to the cent per line, the total in bold under a rule. */
function receipt(doc: PDFKit.PDFDocument, lines: PriceLine[]) {
  for (const line of lines) {
    const total = line.kind === 'total';
    const label = pdfText(line.label);
    const amount = `${line.kind === 'discount' ? '-' : ''}${usdText(line.cents)}`;
    doc.font(total ? 'Helvetica-Bold' : 'Helvetica').fontSize(9.5);
    const height = Math.max(doc.heightOfString(label, { width: 330 }), 11) + 5;
    ensureRoom(doc, height);
    const y = doc.y;
    if (total) doc.save().moveTo(LEFT, y).lineTo(LEFT + WIDTH, y).lineWidth(1).strokeColor(INK).stroke().restore();
    doc.fillColor(total ? INK : MUTED).text(label, LEFT, y + 3, { width: 330 });
    doc.fillColor(INK).font('Helvetica-Bold').text(amount, LEFT + 330, y + 3, { width: WIDTH - 330, align: 'right' });
    doc.y = y + height;
    if (!total) doc.save().moveTo(LEFT, doc.y).lineTo(LEFT + WIDTH, doc.y).lineWidth(0.5).strokeColor(RULE).stroke().restore();
  }
}

const COLUMNS = [
  { title: '#', width: 20 },
  { title: 'Name as on passport', width: 175 },
  { title: 'Date of birth', width: 90 },
  { title: 'Passport number', width: 105 },
  { title: 'Nationality', width: 105 },
] as const;

function tableRow(doc: PDFKit.PDFDocument, cells: string[], bold: boolean) {
  doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9.5);
  const height = Math.max(...cells.map((cell, index) => doc.heightOfString(cell, { width: COLUMNS[index]!.width - 6 }))) + 10;
  ensureRoom(doc, height);
  const y = doc.y;
  if (bold) doc.save().rect(LEFT, y, WIDTH, height).fill('#eef3f8').restore();
  let x = LEFT;
  cells.forEach((cell, index) => {
    doc.fillColor(bold ? BRAND : INK).text(cell, x + 3, y + 5, { width: COLUMNS[index]!.width - 6 });
    x += COLUMNS[index]!.width;
  });
  doc.y = y + height;
  doc.save().moveTo(LEFT, doc.y).lineTo(LEFT + WIDTH, doc.y).lineWidth(0.5).strokeColor(RULE).stroke().restore();
}

function travellersTable(doc: PDFKit.PDFDocument, travellers: CertificateData['travellers']) {
  tableRow(
    doc,
    COLUMNS.map((column) => column.title),
    true,
  );
  travellers.forEach((traveller, index) => {
    tableRow(
      doc,
      [String(index + 1), passportName(traveller), longDate(traveller.dob), traveller.passport ?? '-', traveller.nationality ?? '-'].map(pdfText),
      false,
    );
  });
}

function box(doc: PDFKit.PDFDocument, text: string) {
  doc.font('Helvetica').fontSize(10);
  const height = doc.heightOfString(text, { width: WIDTH - 24 }) + 20;
  ensureRoom(doc, height);
  const y = doc.y;
  doc.save().roundedRect(LEFT, y, WIDTH, height, 6).lineWidth(1).fillAndStroke('#f1f7fc', BRAND).restore();
  doc.fillColor(INK).font('Helvetica').fontSize(10).text(text, LEFT + 12, y + 10, { width: WIDTH - 24 });
  doc.y = y + height;
}

/** The broker's contact, at the bottom of the last page. */
function footer(doc: PDFKit.PDFDocument, broker: CertificateData['broker']) {
  const lines = [
    broker.name,
    broker.address,
    [broker.phone && `Phone ${broker.phone}`, broker.whatsapp && `WhatsApp ${broker.whatsapp}`, broker.email].filter(Boolean).join('  |  '),
    broker.disclaimer,
  ]
    .filter((line) => line.trim())
    .map(pdfText);
  doc.font('Helvetica').fontSize(8.5);
  const height = lines.reduce((sum, line) => sum + doc.heightOfString(line, { width: WIDTH }) + 2, 0) + 12;
  const bottom = doc.page.height - doc.page.margins.bottom;
  if (doc.y + 16 + height > bottom) doc.addPage();
  let y = bottom - height;
  doc.save().moveTo(LEFT, y).lineTo(LEFT + WIDTH, y).lineWidth(0.5).strokeColor(RULE).stroke().restore();
  y += 8;
  lines.forEach((line, index) => {
    doc.fillColor(index === 0 ? INK : MUTED).font(index === 0 ? 'Helvetica-Bold' : 'Helvetica').fontSize(8.5).text(line, LEFT, y, { width: WIDTH });
    y = doc.y + 2;
  });
}

/** Why a policy was cancelled, as its certificate says it. */
const CANCEL_REASON_TEXT: Record<string, string> = {
  visa_refused: 'the visa was refused',
  trip_cancelled: 'the trip was cancelled',
  other: "at the policyholder's request",
};

/**
 * A cancelled policy's mark (issue 36 item 5): a red box under the title saying the policy is
 * CANCELLED, when and why, so a printed copy can never pass for cover.
 */
function cancelledBanner(doc: PDFKit.PDFDocument, cancelled: NonNullable<CertificateData['cancelled']>) {
  const top = doc.y;
  const text = pdfText(`CANCELLED on ${longDate(cancelled.at.toISOString().slice(0, 10))} (${CANCEL_REASON_TEXT[cancelled.reason] ?? CANCEL_REASON_TEXT.other}). This policy gives no cover.`);
  doc.font('Helvetica-Bold').fontSize(13);
  const height = doc.heightOfString(text, { width: WIDTH - 20 }) + 16;
  doc.save().lineWidth(2).strokeColor(CANCELLED_RED).rect(LEFT, top, WIDTH, height).stroke().restore();
  doc.fillColor(CANCELLED_RED).text(text, LEFT + 10, top + 8, { width: WIDTH - 20 });
  doc.y = top + height + 10;
  doc.x = LEFT;
}
