import { createHash } from 'node:crypto';
import { pdfKit } from '../policies/pdfkit-lazy';
import type { LoadedPlan } from './catalogue';

const ZONE_NAMES: Record<string, string> = {
  schengen: 'Schengen states',
  worldwide_ex_us_ca: 'Worldwide excluding USA and Canada',
  worldwide: 'Worldwide',
};

const SECTION_TITLES: Record<number, string> = { 1: 'Main cover', 2: 'Travel inconvenience', 3: 'Liability and other cover' };

/**
 * The plan-benefits document of a plan (spec §3 planDocuments), drawn by PDFKit from the
 * catalogue rows, so it always matches what the quote shows. English only: PDFKit lays Arabic
 * out without bidirectional reordering, so an Arabic version would print words in the wrong order.
 */
export async function planDocumentPdf(plan: LoadedPlan): Promise<Buffer> {
  const PDFDocument = await pdfKit();
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: `${plan.nameEn} - plan benefits`, Author: plan.insurer.nameEn, Subject: 'Travel insurance plan benefits (demo)' },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const zones = [...new Set(plan.rates.map((rate) => rate.zone))].map((zone) => ZONE_NAMES[zone] ?? zone);
  doc.fillColor('#14507a').font('Helvetica-Bold').fontSize(20).text(plan.nameEn);
  doc.fillColor('#333').font('Helvetica').fontSize(12).text(`${plan.insurer.nameEn} - ${plan.coverageNameEn} cover`);
  doc.moveDown(0.3).fontSize(9).fillColor('#a33').text('Demonstration document: the insurer is fictional and no real cover is issued.');
  doc.moveDown();

  const facts: [string, string][] = [
    ['Trip type', plan.tripType === 2 ? 'Annual multi-trip' : 'Single trip'],
    ['Cover zone', zones.join('; ')],
    ['Ages covered', `${plan.minAge} to ${plan.maxAge} years`],
    [plan.tripType === 2 ? 'Longest trip within the year' : 'Longest trip', `${plan.maxTripDays} days`],
    ['Medical limit', `USD ${plan.medicalLimitUsd.toLocaleString('en-US')}`],
    ['Schengen visa', plan.schengenVisaCompliant ? 'Meets the Schengen visa requirement (EUR 30,000 medical)' : 'Not for Schengen visa applications'],
    ['Family price', plan.familyFactorPct === null ? 'No family price' : `${(plan.familyFactorPct / 100).toFixed(2)} x the principal's premium`],
    ['Policy issue', plan.isInstantPolicy ? 'Instant' : 'Within 1 working day'],
  ];
  if (plan.excludedDestinationIds.length > 0) facts.push(['Destinations not covered', plan.excludedDestinationIds.join(', ') + ' (ISO 3166-1 numeric)']);
  row(doc, facts);

  for (const section of [1, 2, 3]) {
    const highlights = plan.features.filter((feature) => feature.kind === 'highlight' && feature.section === section);
    if (highlights.length === 0) continue;
    heading(doc, SECTION_TITLES[section]!);
    row(doc, highlights.map((feature) => [feature.labelEn, feature.valueEn]));
  }
  const benefits = plan.features.filter((feature) => feature.kind === 'benefit');
  if (benefits.length > 0) {
    heading(doc, 'Benefits');
    row(doc, benefits.map((feature) => [feature.labelEn, feature.valueEn]));
  }
  if (plan.addons.length > 0) {
    heading(doc, 'Optional add-ons');
    row(
      doc,
      plan.addons.map((addon) => [
        addon.labelEn,
        (addon.perTravellerCents !== null
          ? `USD ${(addon.perTravellerCents / 100).toFixed(2)} per traveller`
          : `${((addon.premiumShareBp ?? 0) / 100).toFixed(1)} % of the premium`) + (addon.maxAge !== null ? `, travellers up to ${addon.maxAge}` : ''),
      ]),
    );
  }
  doc.end();
  return done;
}

function heading(doc: PDFKit.PDFDocument, title: string) {
  doc.moveDown(0.8).fillColor('#14507a').font('Helvetica-Bold').fontSize(13).text(title, 50);
  doc.moveDown(0.3);
}

function row(doc: PDFKit.PDFDocument, lines: [string, string][]) {
  for (const [label, value] of lines) {
    const y = doc.y;
    doc.fillColor('#555').font('Helvetica').fontSize(10).text(label, 50, y, { width: 200 });
    const after = doc.y;
    doc.fillColor('#111').font('Helvetica-Bold').fontSize(10).text(value, 260, y, { width: 285 });
    doc.y = Math.max(after, doc.y) + 4;
  }
}

/** A generated plan document and its strong ETag (a hash of these exact bytes). */
export interface PlanDocument {
  pdf: Buffer;
  etag: string;
}

/**
 * The version of a plan's document: a hash of every catalogue row it is drawn from (the plan,
 * its insurer, rates, add-ons and features). A broker edit to any of them gives a new version.
 */
export function planDocumentVersion(plan: LoadedPlan): string {
  return createHash('sha256').update(JSON.stringify(plan)).digest('hex');
}

/**
 * Generated plan documents kept in memory (issue 7 row 8): drawing a PDF costs far more than
 * reading the catalogue rows, so a plan's document is drawn once per version and then served
 * from here. One entry per plan, replaced when its version changes, so the cache never holds
 * more documents than the catalogue has plans. Two first requests at once share one drawing.
 * `render` is the drawing function (tests count its calls).
 */
export function planDocumentCache(render: (plan: LoadedPlan) => Promise<Buffer> = planDocumentPdf) {
  const entries = new Map<number, { version: string; document: Promise<PlanDocument> }>();
  return {
    get(plan: LoadedPlan): Promise<PlanDocument> {
      const version = planDocumentVersion(plan);
      const hit = entries.get(plan.id);
      if (hit?.version === version) return hit.document;
      const document = render(plan).then((pdf) => ({ pdf, etag: `"${createHash('sha256').update(pdf).digest('base64url')}"` }));
      entries.set(plan.id, { version, document });
      // A failed drawing is not kept: the next request tries again.
      document.catch(() => {
        if (entries.get(plan.id)?.document === document) entries.delete(plan.id);
      });
      return document;
    },
  };
}

export type PlanDocumentCache = ReturnType<typeof planDocumentCache>;
