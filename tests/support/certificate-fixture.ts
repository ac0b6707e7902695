import type { CertificateData } from '../../src/server/policies/certificate-data';

/** When the fixture's policy was issued. */
export const CERTIFICATE_ISSUED = new Date(Date.UTC(2026, 2, 15, 10, 30));

/**
 * A certificate's data as certificate-data.ts reads it, fixed: a two-traveller Schengen policy
 * with one add-on, whose price lines add up to the cent. For the certificate's own tests and the
 * QR helper's (tests/support/pdf-qr.ts).
 */
export function certificateFixture(overrides: Partial<CertificateData> = {}): CertificateData {
  return {
    policyId: 1,
    policyNumber: 'SFR-26-7K3Q9M2T',
    downloadToken: 'A'.repeat(43),
    verifyCode: '3F9A0C71B2D4E8A6',
    issuedAt: CERTIFICATE_ISSUED,
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
