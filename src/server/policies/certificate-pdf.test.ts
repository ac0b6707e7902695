import { extractText, getDocumentProxy, getMeta } from 'unpdf';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { schengenStatementApplies, type CertificateData } from './certificate-data';
import { verifyUrl, certificatePdf, pdfText, SCHENGEN_STATEMENT } from './certificate-pdf';

/** The certificate PDF (RULINGS 21) drawn from fixed data, read back as text with unpdf. */

const ISSUED = new Date(Date.UTC(2026, 2, 15, 10, 30));

const PUBLIC_URL = 'https://safar.test';

function certificate(overrides: Partial<CertificateData> = {}): CertificateData {
  return {
    policyId: 1,
    policyNumber: 'SFR-26-7K3Q9M2T',
    downloadToken: 'A'.repeat(43),
    verifyCode: '3F9A0C71B2D4E8A6',
    issuedAt: ISSUED,
    mailedAt: null,
    cancelled: null,
    leadId: 1,
    customerName: 'Rania Haddad',
    email: 'rania@example.com',
    order: { merchantReference: 'SAF42-MFX3K2A1-7QZC0P4M8R2D', lang: 'en', totalCents: 123_456, discountCents: 0, couponCode: null },
    quoteReference: 'QR-2026-0042',
    pageToken: 'b'.repeat(64),
    insurer: { nameEn: 'Levant Shield (demo)', nameAr: 'درع المشرق (تجريبي)', assistancePhone: '+961 1 555 712' },
    plan: { nameEn: 'Schengen Visa Care', nameAr: 'رعاية تأشيرة شنغن', coverageEn: 'Standard', coverageAr: 'عادية', medicalLimitUsd: 60_000, schengenVisaCompliant: true, family: false },
    addons: [{ addonId: 5, code: 'winter_sports', nameEn: 'Winter sports', nameAr: 'الرياضات الشتوية', cents: 11_000, limitUsd: 10_000 }],
    // 100 000 + 11 000 − 0 + 12 210 (11 %) + 246 = 123 456.
    price: { planCents: 100_000, addonsCents: 11_000, discountCents: 0, couponCode: null, vatPercent: 11, vatCents: 12_210, stampCents: 246, totalCents: 123_456 },
    trip: {
      tripType: 1,
      startDate: '2026-04-01',
      endDate: '2026-04-10',
      days: 10,
      direction: 'outbound',
      destinations: ['France', 'Italy'],
      destinationsAr: ['فرنسا', 'إيطاليا'],
      source: 'Lebanon',
      toSchengenArea: true,
    },
    travellers: [
      { firstName: 'Rania', middleName: 'Elias', lastName: 'Haddad', dob: '1988-06-01', passport: 'LR1234567', nationality: 'Lebanon' },
      { firstName: 'Karim', middleName: null, lastName: 'Haddad', dob: '2015-03-12', passport: 'LR7654321', nationality: null },
    ],
    broker: {
      name: 'Safar Insurance Brokers (demo)',
      address: 'Beirut Digital District, Beirut, Lebanon',
      email: 'care@safar.example',
      phone: '+961 1 500 500',
      whatsapp: '+96170123456',
      disclaimer: 'Insurers shown are fictional.',
    },
    ...overrides,
  };
}

/** The PDF's text, pages joined (unpdf takes its own copy of the bytes). */
async function textOf(pdf: Buffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true });
  return text.replace(/\s+/g, ' ');
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
    const data = certificate({
      order: { ...certificate().order, totalCents: 9_484, discountCents: 966, couponCode: 'PHOENICIA20' },
      addons: [
        { addonId: 1, code: 'winter_sports', nameEn: 'Winter sports', nameAr: 'الرياضات الشتوية', cents: 3_000, limitUsd: 10_000 },
        { addonId: 2, code: 'trip_cancellation', nameEn: 'Trip cancellation', nameAr: 'إلغاء الرحلة', cents: 1_500, limitUsd: 5_000 },
      ],
      price: { planCents: 4_830, addonsCents: 4_500, discountCents: 966, couponCode: 'PHOENICIA20', vatPercent: 11, vatCents: 920, stampCents: 200, totalCents: 9_484 },
    });
    const text = await textOf(await certificatePdf(data, PUBLIC_URL));
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
