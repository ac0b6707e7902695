import { extractText, getDocumentProxy, getMeta } from 'unpdf';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { certificateFixture as certificate, CERTIFICATE_ISSUED as ISSUED } from '../../../tests/support/certificate-fixture';
import { schengenStatementApplies, type CertificateData } from './certificate-data';
import { ARABIC_FONT_NAME } from './certificate-fonts';
import { verifyUrl, certificatePdf, pdfText, SCHENGEN_STATEMENT } from './certificate-pdf';

/**
 * The certificate PDF (RULINGS 21) drawn from fixed data, read back as text with unpdf, in
 * English and in Arabic (issue 37 item 3). Its download route: certificate-route.test.ts.
 */

const PUBLIC_URL = 'https://safar.test';


/** The PDF's text, pages joined (unpdf takes its own copy of the bytes). */
async function textOf(pdf: Buffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

type TextItem = { str: string; dir: string; transform: number[] };
const MIRRORED: Record<string, string> = { '(': ')', ')': '(' };

/**
 * The PDF's lines as a reader reads them, every page top to bottom: the pieces on one baseline
 * from the right in Arabic (from the left in English), joined by a space. pdf.js gives each
 * piece in reading order but keeps a right-to-left piece's brackets as drawn (mirrored): they
 * are turned back. pdf.js also splits lam-alef (لا) and a shadda from their letters, so the
 * lines looked for here avoid them.
 */
async function linesOf(pdf: Buffer, dir: 'ltr' | 'rtl'): Promise<string[]> {
  const document = await getDocumentProxy(new Uint8Array(pdf));
  const lines: string[] = [];
  for (let number = 1; number <= document.numPages; number++) {
    const items = ((await (await document.getPage(number)).getTextContent()).items as TextItem[]).filter((item) => item.str.trim());
    items.sort((a, b) => b.transform[5]! - a.transform[5]!);
    const rows: TextItem[][] = [];
    for (const item of items) {
      const row = rows.at(-1);
      if (row && Math.abs(row[0]!.transform[5]! - item.transform[5]!) < 2) row.push(item);
      else rows.push([item]);
    }
    for (const row of rows) {
      row.sort((a, b) => (dir === 'rtl' ? b.transform[4]! - a.transform[4]! : a.transform[4]! - b.transform[4]!));
      const text = row.map((item) => (item.dir === 'rtl' ? item.str.replace(/[()]/g, (bracket) => MIRRORED[bracket]!) : item.str)).join(' ');
      lines.push(text.replace(/\s+/g, ' ').trim());
    }
  }
  return lines;
}

/** The Arabic certificate's lines. */
const arabicLines = async (data: CertificateData) => linesOf(await certificatePdf(data, PUBLIC_URL, 'ar'), 'rtl');

/** A coupon order with two add-ons: 4 830 + 3 000 + 1 500 − 966 = 8 364; VAT 11 % = 920; + stamp 200 = 9 484. */
function withCoupon(overrides: Partial<CertificateData> = {}): CertificateData {
  return certificate({
    order: { ...certificate().order, totalCents: 9_484, discountCents: 966, couponCode: 'PHOENICIA20' },
    addons: [
      { addonId: 1, code: 'winter_sports', nameEn: 'Winter sports', nameAr: 'الرياضات الشتوية', cents: 3_000, limitUsd: 10_000 },
      { addonId: 2, code: 'trip_cancellation', nameEn: 'Trip cancellation', nameAr: 'إلغاء الرحلة', cents: 1_500, limitUsd: 5_000 },
    ],
    price: { planCents: 4_830, addonsCents: 4_500, discountCents: 966, couponCode: 'PHOENICIA20', vatPercent: 11, vatCents: 920, stampCents: 200, totalCents: 9_484 },
    ...overrides,
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the certificate', () => {
  it('holds the title, insurer, plan, policy number, issue date, quote reference, trip, medical limit, amount and broker contact', async () => {
    const pdf = await certificatePdf(certificate(), PUBLIC_URL);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await textOf(pdf);
    for (const expected of [
      'Travel insurance certificate',
      'Levant Shield (demo)',
      'Schengen Visa Care (Standard cover)',
      'SFR-26-7K3Q9M2T',
      '15 March 2026',
      'QR-2026-0042',
      'Single trip',
      '1 April 2026 to 10 April 2026 (10 days)',
      'From Lebanon to France, Italy',
      'USD 60,000 per traveller',
      'USD 1,234.56 (VAT included)',
      'SAF42-MFX3K2A1-7QZC0P4M8R2D',
      'Safar Insurance Brokers (demo)',
      '+961 1 500 500',
      'care@safar.example',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('lists each traveller with the name as on the passport (middle name included), date of birth, passport number and nationality', async () => {
    const text = await textOf(await certificatePdf(certificate(), PUBLIC_URL));
    expect(text).toMatch(/1 Rania Elias Haddad 1 June 1988 LR1234567 Lebanon/);
    // No nationality saved (the plan did not ask for it): a dash, not another traveller's.
    expect(text).toMatch(/2 Karim Haddad 12 March 2015 LR7654321 -/);
  });

  it('a trip to Lebanon names the source country; an annual plan says so', async () => {
    const inbound = certificate({ trip: { ...certificate().trip, direction: 'inbound', destinations: ['Lebanon'], source: 'Turkey', toSchengenArea: false, tripType: 2 } });
    const text = await textOf(await certificatePdf(inbound, PUBLIC_URL));
    expect(text).toContain('From Turkey to Lebanon');
    expect(text).toContain('Annual multi-trip');
  });

  it('a 100 % coupon order reads "Fully discounted" with its coupon, not USD 0.00', async () => {
    const free = certificate({
      order: { ...certificate().order, totalCents: 0, discountCents: 12_000, couponCode: 'FREE100' },
      addons: [],
      price: { planCents: 12_000, addonsCents: 0, discountCents: 12_000, couponCode: 'FREE100', vatPercent: 11, vatCents: 0, stampCents: 0, totalCents: 0 },
    });
    const text = await textOf(await certificatePdf(free, PUBLIC_URL));
    expect(text).toContain('Fully discounted (coupon FREE100)');
    expect(text).not.toContain('USD 0.00 (VAT included)');
    expect(text).toContain('Discount (coupon FREE100) -USD 120.00');
  });

  it('lists what was paid for: the plan, each add-on, the discount with its coupon, VAT, the stamp fee and the total paid, to the cent', async () => {
    // 4 830 + 4 500 − 966 (PHOENICIA20: 20 % of the plan) = 8 364; VAT 11 % = 920.04 → 920; + stamp 200 = 9 484.
    const text = await textOf(await certificatePdf(withCoupon(), PUBLIC_URL));
    expect(text).toContain(
      'Premium paid Plan premium USD 48.30 Winter sports USD 30.00 Trip cancellation USD 15.00 Discount (coupon PHOENICIA20) -USD 9.66 VAT (11%) USD 9.20 Stamp fee USD 2.00 Total paid USD 94.84',
    );
    expect(text).toContain('USD 94.84 (VAT included)');
  });

  it('carries the Schengen statement only for a trip to a Schengen state on a plan marked Schengen-compliant', async () => {
    const base = certificate();
    const noSchengenPlan = certificate({ plan: { ...base.plan, schengenVisaCompliant: false } });
    const notToSchengen = certificate({ trip: { ...base.trip, destinations: ['Turkey'], toSchengenArea: false } });
    const toLebanon = certificate({ trip: { ...base.trip, direction: 'inbound', destinations: ['Lebanon'], source: 'France', toSchengenArea: false } });
    expect([base, noSchengenPlan, notToSchengen, toLebanon].map(schengenStatementApplies)).toEqual([true, false, false, false]);

    const statementStart = SCHENGEN_STATEMENT.slice(0, 60);
    expect(await textOf(await certificatePdf(base, PUBLIC_URL))).toContain(statementStart);
    for (const data of [noSchengenPlan, notToSchengen, toLebanon]) {
      const text = await textOf(await certificatePdf(data, PUBLIC_URL));
      expect(text).not.toContain('Schengen visa:');
      expect(text).not.toContain(statementStart);
    }
  });

  it('renders the same bytes whatever the clock says (clock mocked), with Title, Author Safar and CreationDate the issue time', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.UTC(2027, 0, 1));
    const first = await certificatePdf(certificate(), PUBLIC_URL);
    vi.setSystemTime(Date.UTC(2030, 5, 1));
    const second = await certificatePdf(certificate(), PUBLIC_URL);
    vi.useRealTimers();
    expect(second.equals(first)).toBe(true);

    const { info } = await getMeta(new Uint8Array(first), { parseDates: true });
    expect(info.Title).toBe('Travel insurance certificate SFR-26-7K3Q9M2T');
    expect(info.Author).toBe('Safar');
    expect((info.CreationDate as Date).getTime()).toBe(ISSUED.getTime());
  });

  it('a cancelled policy says CANCELLED, when and why, under its title and in its facts; one not cancelled says neither', async () => {
    const cancelled = await textOf(await certificatePdf(certificate({ cancelled: { at: new Date('2026-03-20T09:00:00Z'), reason: 'visa_refused' } }), PUBLIC_URL));
    expect(cancelled).toContain('CANCELLED on 20 March 2026 (the visa was refused). This policy gives no cover.');
    expect(cancelled).toContain('Status CANCELLED on 20 March 2026: no cover');
    expect(await textOf(await certificatePdf(certificate(), PUBLIC_URL))).not.toContain('CANCELLED');
  });

  it('many travellers run onto a second page that says whose certificate it continues, and every traveller is listed', async () => {
    const travellers = Array.from({ length: 16 }, (_, index) => ({ ...certificate().travellers[0]!, firstName: `Traveller${index + 1}`, passport: `P${1000 + index}` }));
    const pdf = await certificatePdf(certificate({ travellers }), PUBLIC_URL);
    const document = await getDocumentProxy(new Uint8Array(pdf));
    expect(document.numPages).toBeGreaterThan(1);
    const text = await textOf(pdf);
    expect(text).toContain('SFR-26-7K3Q9M2T (continued)');
    for (const traveller of travellers) expect(text).toContain(`${traveller.firstName} Elias Haddad`);
  });
});

describe('text the built-in font cannot print', () => {
  it('keeps Latin-1 and curly quotes, drops accents the font lacks, and turns anything else into "?"', () => {
    expect(pdfText('Côte d’Ivoire — Curaçao, Åland')).toBe('Côte d’Ivoire — Curaçao, Åland');
    expect(pdfText('Őrség Łódź')).toBe('Orség ?ódz');
    expect(pdfText('Ελλάδα')).toBe('??????');
    expect(pdfText('لبنان')).toBe('?????');
    expect(pdfText('tab\there')).toBe('tab here');
  });

  it('a certificate with Arabic or Greek data still renders, with "?" where the font has no glyph', async () => {
    const data = certificate({ trip: { ...certificate().trip, destinations: ['Ελλάδα', 'فرنسا'] }, insurer: { nameEn: 'درع', nameAr: 'درع', assistancePhone: '' } });
    const text = await textOf(await certificatePdf(data, PUBLIC_URL));
    expect(text).toContain('From Lebanon to ??????, ?????');
    expect(text).toContain('Insurer ???');
  });
});

describe('the verification mark (issue 37 item 4)', () => {
  it('prints the verification code beside a QR code of the verify page', async () => {
    const pdf = await certificatePdf(certificate(), PUBLIC_URL);
    const text = await textOf(pdf);
    expect(text).toContain('Check this policy: 3F9A-0C71-B2D4-E8A6');
    // The QR code is an image (with its transparency mask).
    expect(pdf.toString('latin1')).toMatch(/\/Subtype \/Image/);
    expect(verifyUrl(PUBLIC_URL, '3F9A0C71B2D4E8A6')).toBe('https://safar.test/verify/3F9A0C71B2D4E8A6');
  });
});

describe('the certificate in both languages (issue 37 item 3)', () => {
  it('lists each add-on as a cover with the most it pays per traveller, in English and in Arabic', async () => {
    const data = withCoupon({ addons: [...withCoupon().addons, { addonId: 3, code: 'covid', nameEn: 'COVID-19 extension', nameAr: 'تمديد كوفيد-19', cents: 0, limitUsd: null }] });
    const english = await linesOf(await certificatePdf(data, PUBLIC_URL), 'ltr');
    const covers = english.indexOf('Add-on covers');
    expect(covers).toBeGreaterThan(-1);
    expect(english.slice(covers + 1, covers + 4)).toEqual([
      'Winter sports Up to USD 10,000 per traveller',
      'Trip cancellation Up to USD 5,000 per traveller',
      'COVID-19 extension Covered, as the policy terms say',
    ]);
    const arabic = await arabicLines(data);
    const coversAr = arabic.findIndex((line) => line.startsWith('التغطيات '));
    expect(arabic).toContain('الرياضات الشتوية حتى USD 10,000 لكل مسافر');
    expect(arabic).toContain('إلغاء الرحلة حتى USD 5,000 لكل مسافر');
    expect(arabic).toContain('تمديد كوفيد-19 مشمولة وفق شروط البوليصة');
    expect(arabic.indexOf('الرياضات الشتوية حتى USD 10,000 لكل مسافر')).toBe(coversAr + 1);

    // No add-on bought: no section.
    const none = certificate({ addons: [], price: { ...certificate().price, addonsCents: 0 } });
    expect(await textOf(await certificatePdf(none, PUBLIC_URL))).not.toContain('Add-on covers');
    expect((await arabicLines(none)).join('\n')).not.toContain('لكل مسافر USD');
  });

  it('says "Family plan" / «خطة عائلية» with the plan of a Family plan only', async () => {
    const family = certificate({ plan: { ...certificate().plan, family: true } });
    expect(await linesOf(await certificatePdf(family, PUBLIC_URL), 'ltr')).toContain('Plan Schengen Visa Care (Standard cover), Family plan');
    expect(await arabicLines(family)).toContain('الخطة رعاية تأشيرة شنغن (تغطية عادية)، خطة عائلية');
    expect(await textOf(await certificatePdf(certificate(), PUBLIC_URL))).not.toContain('Family plan');
    const single = await arabicLines(certificate());
    expect(single).toContain('الخطة رعاية تأشيرة شنغن (تغطية عادية)');
    expect(single.join('\n')).not.toContain('خطة عائلية');
  });

  it("prints the insurer's 24/7 emergency line on the first page above the facts, in both languages; not without a number nor on a cancelled policy", async () => {
    const data = certificate({ insurer: { ...certificate().insurer, assistancePhone: '+961 1 999 024' } });
    const english = await linesOf(await certificatePdf(data, PUBLIC_URL), 'ltr');
    // Beside the QR code: its caption may share the number's line.
    const number = (lines: string[]) => lines.findIndex((line) => line.includes('+961 1 999 024'));
    expect(english.some((line) => line.startsWith('24/7 emergency assistance'))).toBe(true);
    expect(number(english)).toBeGreaterThan(-1);
    expect(number(english)).toBeLessThan(english.indexOf('Issue date 15 March 2026'));

    const arabic = await arabicLines(data);
    expect(arabic.some((line) => line.startsWith('المساعدة الطارئة على مدار الساعة'))).toBe(true);
    expect(number(arabic)).toBeGreaterThan(-1);
    expect(number(arabic)).toBeLessThan(arabic.indexOf('شركة التأمين درع المشرق (تجريبي)'));

    const noLine = certificate({ insurer: { ...certificate().insurer, assistancePhone: '' } });
    expect(await textOf(await certificatePdf(noLine, PUBLIC_URL))).not.toContain('24/7 emergency assistance');
    const cancelled = certificate({ cancelled: { at: new Date('2026-03-20T09:00:00Z'), reason: 'other' } });
    expect(await textOf(await certificatePdf(cancelled, PUBLIC_URL))).not.toContain('+961 1 555 712');
  });
});

describe('the Arabic certificate (issue 37 item 3)', () => {
  it('embeds its Arabic font (a subset of Vazirmatn, regular and bold) and is titled in Arabic; the English one embeds no font', async () => {
    const pdf = await certificatePdf(certificate(), PUBLIC_URL, 'ar');
    const raw = pdf.toString('latin1');
    expect(raw).toMatch(new RegExp(`/BaseFont /[A-Z]{6}\\+${ARABIC_FONT_NAME}-Regular`));
    expect(raw).toMatch(new RegExp(`/BaseFont /[A-Z]{6}\\+${ARABIC_FONT_NAME}-Bold`));
    expect(raw).toContain('/Lang (ar)');
    const { info } = await getMeta(new Uint8Array(pdf));
    expect(info.Title).toBe('شهادة تأمين السفر SFR-26-7K3Q9M2T');

    const english = (await certificatePdf(certificate(), PUBLIC_URL)).toString('latin1');
    expect(english).not.toContain(ARABIC_FONT_NAME);
    expect(english).not.toContain('/FontFile2');
  });

  it('reads right to left, each Latin name, number, reference and amount left to right inside its line', async () => {
    const lines = await arabicLines(certificate());
    for (const expected of [
      'شهادة تأمين السفر',
      'رقم البوليصة SFR-26-7K3Q9M2T',
      'شركة التأمين درع المشرق (تجريبي)',
      'رقم عرض السعر QR-2026-0042',
      'نوع الرحلة رحلة واحدة',
      // A date range: day, month, year from the right, Western digits, the app's plural of days.
      'فترة التغطية من 1 نيسان 2026 إلى 10 نيسان 2026 (10 أيام)',
      'الرحلة من لبنان إلى فرنسا، إيطاليا',
      'عدد المسافرين 2',
      'الرقم المرجعي للدفع SAF42-MFX3K2A1-7QZC0P4M8R2D',
      // The travellers from the right: number, the name as on the passport, date of birth, passport, nationality.
      '1 Rania Elias Haddad 1 حزيران 1988 LR1234567 لبنان',
      '2 Karim Haddad 12 آذار 2015 LR7654321 -',
    ]) {
      expect(lines).toContain(expected);
    }
    // The amount paid: the label, then the amount as one left-to-right unit (the rest of the line has a lam-alef).
    expect(lines.some((line) => line.startsWith('المبلغ المدفوع USD 1,234.56 ('))).toBe(true);
    expect(lines.some((line) => line.endsWith('15 آذار 2026'))).toBe(true);
  });

  it('lists the receipt line by line in Arabic, to the cent, the coupon code inside its line', async () => {
    const lines = await arabicLines(withCoupon());
    const start = lines.indexOf('قسط الخطة USD 48.30');
    expect(start).toBeGreaterThan(-1);
    expect(lines.slice(start, start + 7)).toEqual([
      'قسط الخطة USD 48.30',
      'الرياضات الشتوية USD 30.00',
      'إلغاء الرحلة USD 15.00',
      'الخصم (رمز الخصم PHOENICIA20) -USD 9.66',
      // pdf.js reads "(11%)" back as "(%11)": the percent sign is a neutral to its bidi.
      expect.stringMatching(/^الضريبة على القيمة المضافة \((?:11%|%11)\) USD 9\.20$/),
      'رسم الطابع المالي USD 2.00',
      'المبلغ المدفوع USD 94.84',
    ]);
  });

  it('a cancelled policy says so in Arabic (and CANCELLED) under its title and in its facts', async () => {
    const lines = await arabicLines(certificate({ cancelled: { at: new Date('2026-03-20T09:00:00Z'), reason: 'trip_cancelled' } }));
    expect(lines.some((line) => line.startsWith('ملغاة (CANCELLED) في 20 آذار 2026'))).toBe(true);
    expect(lines.some((line) => line.startsWith('الحالة ملغاة في 20 آذار 2026:'))).toBe(true);
    expect((await arabicLines(certificate())).join('\n')).not.toMatch(/ملغاة|CANCELLED/);
  });

  it('carries the Schengen statement in Arabic, and a second page says whose certificate it continues', async () => {
    const travellers = Array.from({ length: 12 }, (_, index) => ({ ...certificate().travellers[0]!, firstName: `Traveller${index + 1}`, passport: `P${1000 + index}` }));
    const lines = await arabicLines(certificate({ travellers }));
    expect(lines).toContain('تأشيرة شنغن');
    expect(lines.some((line) => line.startsWith('تستوفي هذه البوليصة شروط تأشيرة شنغن'))).toBe(true);
    expect(lines).toContain('شهادة تأمين السفر SFR-26-7K3Q9M2T (تابع)');
    for (const [index, traveller] of travellers.entries()) expect(lines).toContain(`${index + 1} ${traveller.firstName} Elias Haddad 1 حزيران 1988 ${traveller.passport} لبنان`);
  });

  it('prints "?" for a letter its font lacks, as the English one does, never an empty box', async () => {
    const data = certificate({ trip: { ...certificate().trip, destinationsAr: ['Ελλάδα', 'فرنسا'] } });
    expect(await arabicLines(data)).toContain('الرحلة من لبنان إلى ??????، فرنسا');
  });

  it('renders the same bytes whatever the clock says', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.UTC(2027, 0, 1));
    const first = await certificatePdf(certificate(), PUBLIC_URL, 'ar');
    vi.setSystemTime(Date.UTC(2030, 5, 1));
    const second = await certificatePdf(certificate(), PUBLIC_URL, 'ar');
    expect(second.equals(first)).toBe(true);
  });
});
