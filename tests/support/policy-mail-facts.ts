import type { PriceLine } from '../../src/server/orders/price-lines';
import type { PolicyMailFacts } from '../../src/server/mail/policy-mail';

/**
 * What a policy e-mail is written from, fixed: two travellers, an add-on, a coupon, and price lines
 * that add up to the cent. For the mail's unit test and its Chromium check at 375 px.
 */
export const POLICY_MAIL_LINES: PriceLine[] = [
  { kind: 'plan', label: 'Plan premium', cents: 4_835 },
  { kind: 'addon', label: 'Winter sports', cents: 2_995 },
  { kind: 'discount', label: 'Discount (coupon PHOENICIA20)', cents: 967 },
  { kind: 'vat', label: 'VAT (11%)', cents: 920 },
  { kind: 'stamp', label: 'Stamp fee', cents: 200 },
  { kind: 'total', label: 'Total paid', cents: 7_983 },
];

export const policyMailFacts = (change: Partial<PolicyMailFacts> = {}): PolicyMailFacts => ({
  customerName: 'Rania Haddad',
  policyNumber: 'SFR-26-7K3Q9M2T',
  insurerName: 'Cedar Mutual',
  planName: 'Schengen Plus',
  coverageName: 'Schengen',
  startDate: '2026-12-05',
  endDate: '2026-12-14',
  travellers: ['Rania Haddad', 'Karim Haddad'],
  addons: ['Winter sports'],
  lines: POLICY_MAIL_LINES,
  link: 'https://safar.test/policies/x/certificate.pdf',
  pageLink: `https://safar.test/policy/${'ab12'.repeat(16)}`,
  ...change,
});
