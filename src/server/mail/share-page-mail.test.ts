import { describe, expect, it } from 'vitest';
import { whatsappTemplate } from '../shares/share-texts';
import { sharePageMail } from './share-page-mail';

/**
 * Amounts in the Arabic share texts (issue 21): "$58" as the app writes it (formatMoney), never
 * "58$". The amount sits in a left-to-right isolate, the one unit an Arabic line cannot reorder,
 * in the plain text and the HTML alike; English needs none.
 */

const LRI = '\u2066';
const PDI = '\u2069';
const link = 'https://safar.test/compare-quotes?uuid=x&lang=ar';

describe('amounts in the share e-mail', () => {
  it('in Arabic, a plan\'s price is "$58" kept whole in a left-to-right isolate, in text and HTML', () => {
    const mail = sharePageMail('ar', 'Rania Haddad', link, { page: 'quotes' }, [{ name: 'أوروبا المرنة', cents: 5_800 }]);
    expect(mail.text).toContain(`أوروبا المرنة — ابتداءً من ${LRI}$58${PDI}`);
    expect(mail.html).toContain(`<li>أوروبا المرنة — ابتداءً من ${LRI}$58${PDI}</li>`);
  });

  it('in Arabic, the total to pay of a checkout link is isolated the same way, in the e-mail and the WhatsApp text', () => {
    const step = { page: 'checkout', plan: 'أوروبا المرنة', totalCents: 13_320 } as const;
    const mail = sharePageMail('ar', 'Rania Haddad', link, step, []);
    expect(mail.text).toContain(`المجموع المطلوب دفعه: ${LRI}$133.20${PDI} (شاملًا الضريبة على القيمة المضافة).`);
    expect(mail.html).toContain(`${LRI}$133.20${PDI}`);
    expect(whatsappTemplate('ar', 'Rania Haddad', link, step)).toContain(`المجموع: ${LRI}$133.20${PDI}.`);
  });

  it('in English, amounts carry no direction marks', () => {
    const mail = sharePageMail('en', 'Rania Haddad', link, { page: 'quotes' }, [{ name: 'Europe Flex', cents: 5_800 }]);
    expect(mail.text).toContain('Europe Flex — from $58');
    expect(mail.text + mail.html).not.toMatch(/[\u2066-\u2069]/);
  });
});
