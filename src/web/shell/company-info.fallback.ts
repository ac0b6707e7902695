import type { Language } from '../../contract/endpoint';
import type { CompanyInfo } from '../../contract/reference.endpoints';

/**
 * Built-in company information, shown until (or if never) /api/company-info answers (spec §1),
 * and on the pre-rendered first screen: the same words as the seeded company row.
 */
const shared = {
  whatsapp_url: 'https://wa.me/96170123456',
  whatsapp_number: '+96170123456',
  toll_free_number: '+961 1 500 500',
  toll_free_number_tel: 'tel:+9611500500',
  email: 'care@safar.example',
  social: [
    { network: 'facebook', url: 'https://www.facebook.com/safar.example' },
    { network: 'instagram', url: 'https://www.instagram.com/safar.example' },
    { network: 'linkedin', url: 'https://www.linkedin.com/company/safar-example' },
    { network: 'x', url: 'https://x.com/safar_example' },
  ],
};

export const COMPANY_INFO_FALLBACK: Record<Language, CompanyInfo> = {
  en: {
    ...shared,
    name: 'Safar Insurance Brokers (demo)',
    address: 'Beirut Digital District, Building 1, Floor 4, Beirut, Lebanon',
    disclaimer:
      'Safar is a demonstration travel insurance broker. Insurers shown are fictional and no real cover is issued.',
  },
  ar: {
    ...shared,
    name: 'Safar سفر لوساطة التأمين (تجريبي)',
    address: 'منطقة بيروت الرقمية، المبنى 1، الطابق 4، بيروت، لبنان',
    disclaimer: '«سفر» وسيط تجريبي لتأمين السفر. شركات التأمين المعروضة وهمية، ولا تصدر عنها أي تغطية حقيقية.',
  },
};
