// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { COMPANY_INFO } from '../../server/db/seed-data';
import { COMPANY_INFO_FALLBACK } from './company-info.fallback';

// The first screen shows the fallback until the server answers: a customer must not read one
// company name, disclaimer or number first and another a moment later (issue 21's «سفر»).
describe('the built-in company information', () => {
  it.each(['en', 'ar'] as const)('says in %s what the seeded company row says', (lang) => {
    const fallback = COMPANY_INFO_FALLBACK[lang];
    expect({ name: fallback.name, address: fallback.address, disclaimer: fallback.disclaimer }).toEqual(COMPANY_INFO[lang]);
    expect([fallback.whatsapp_number, fallback.toll_free_number, fallback.email, fallback.social]).toEqual([
      COMPANY_INFO.whatsappNumber,
      COMPANY_INFO.tollFreeNumber,
      COMPANY_INFO.email,
      COMPANY_INFO.social,
    ]);
  });
});
