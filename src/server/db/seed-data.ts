import type { MasterListKind, RelationshipGroup } from '../../contract/reference.endpoints';

/**
 * Reference data seeded at first start. Master lists and relationships are the broker's to
 * edit afterwards: the seed only inserts what is missing. Insurers and agents here are
 * fictional demo data, marked "(demo)". A text changed here after release also needs a
 * migration that rewrites the old text where a database still holds it (as 0013 does), or
 * databases seeded before keep the old one.
 */

type Named = { id: number; en: string; ar: string };

/** Relationship type ids: 5 principal (spec §3), 1 spouse (given to adults for provider 3), 2 and 3 children. */
export const RELATION = { spouse: 1, son: 2, daughter: 3, parent: 4, principal: 5, sibling: 6, other: 7 } as const;

const relationTypes: Named[] = [
  { id: RELATION.principal, en: 'Principal (myself)', ar: 'المسافر الرئيسي (أنا)' },
  { id: RELATION.spouse, en: 'Spouse', ar: 'الزوج / الزوجة' },
  { id: RELATION.son, en: 'Son', ar: 'ابن' },
  { id: RELATION.daughter, en: 'Daughter', ar: 'ابنة' },
  { id: RELATION.parent, en: 'Parent', ar: 'أحد الوالدين' },
  { id: RELATION.sibling, en: 'Brother / sister', ar: 'أخ / أخت' },
  { id: RELATION.other, en: 'Other relative', ar: 'قريب آخر' },
];

export const MASTER_LISTS: Record<MasterListKind, Named[]> = {
  genders: [
    { id: 1, en: 'Male', ar: 'ذكر' },
    { id: 2, en: 'Female', ar: 'أنثى' },
  ],
  // The titles each language's customers expect (issue 38), a child's included. Lebanese forms
  // write السيدة for a married woman and الآنسة for an unmarried one, never the marital status in
  // brackets; Ms, which says neither, is «السيدة / الآنسة». A boy is Master in English and الطفل
  // in Arabic; a girl is Miss in English and الطفلة in Arabic, so "Miss (child)" tells her title
  // from a young woman's. No title is tied to a gender or an age: the form asks for the gender
  // itself, and the date of birth decides the age. Ids are never reused: 6 and 7 came with issue
  // 38 (migration 0025 adds them to a database seeded before); `sort` is the list's order.
  prefex: [
    { id: 1, en: 'Mr', ar: 'السيد' },
    { id: 2, en: 'Mrs', ar: 'السيدة' },
    { id: 3, en: 'Ms', ar: 'السيدة / الآنسة' },
    { id: 6, en: 'Miss', ar: 'الآنسة' },
    { id: 4, en: 'Dr', ar: 'د.' },
    { id: 5, en: 'Master', ar: 'الطفل' },
    { id: 7, en: 'Miss (child)', ar: 'الطفلة' },
  ],
  marital_status: [
    { id: 1, en: 'Single', ar: 'أعزب / عزباء' },
    { id: 2, en: 'Married', ar: 'متزوج / متزوجة' },
    { id: 3, en: 'Divorced', ar: 'مطلق / مطلقة' },
    { id: 4, en: 'Widowed', ar: 'أرمل / أرملة' },
  ],
  relation_types: relationTypes,
  relation_types_without_principal: relationTypes.filter((item) => item.id !== RELATION.principal),
  product_types: [
    { id: 1, en: 'Individual', ar: 'فردي' },
    { id: 2, en: 'Several travellers', ar: 'عدة مسافرين' },
  ],
  period_types: [
    { id: 1, en: 'Days', ar: 'أيام' },
    { id: 2, en: 'Months', ar: 'أشهر' },
    { id: 3, en: 'Year', ar: 'سنة' },
  ],
  trip_types: [
    { id: 1, en: 'Single trip', ar: 'رحلة واحدة' },
    { id: 2, en: 'Annual multi-trip', ar: 'سنوية متعددة الرحلات' },
  ],
};

export const RELATIONSHIP_LISTS: Record<RelationshipGroup, Named[]> = {
  families: [
    { id: 1, en: 'Spouse', ar: 'الزوج / الزوجة' },
    { id: 2, en: 'Son', ar: 'ابن' },
    { id: 3, en: 'Daughter', ar: 'ابنة' },
  ],
  domestics: [
    { id: 11, en: 'Domestic worker', ar: 'عامل / عاملة منزل' },
    { id: 12, en: 'Driver', ar: 'سائق' },
    { id: 13, en: 'Nanny', ar: 'مربية' },
  ],
  parents: [
    { id: 21, en: 'Father', ar: 'الأب' },
    { id: 22, en: 'Mother', ar: 'الأم' },
    { id: 23, en: 'Father-in-law', ar: 'والد الزوج / الزوجة' },
    { id: 24, en: 'Mother-in-law', ar: 'والدة الزوج / الزوجة' },
  ],
};

/** Broker settings. Money is integer US cents (RULINGS 17). */
export const DEFAULT_SETTINGS = {
  max_traveller_count: 8,
  family_child_max_age: 18,
  vat_percent: 11,
  stamp_fee_cents: 200,
} as const;
export type SettingKey = keyof typeof DEFAULT_SETTINGS;

/** Lebanon, ISO 3166-1 numeric (RULINGS 3). */
export const HOME_COUNTRY_ID = 422;

/**
 * Fictional demo insurers (RULINGS 10). Ids 7, 3 and 1000 carry the spec's special rules;
 * Orontes is quoted through its HTTP adapter (the insurer sandbox this server hosts).
 */
export const INSURERS = [
  { id: 7, nameEn: 'Cedar Mutual (demo)', nameAr: 'الأرز للتأمين التعاوني (تجريبي)', logo: 'cedar-mutual.svg', acceptsDestinationNationals: false, assistancePhone: '+961 1 555 701', quoteAdapter: 'catalogue', excluded: ['KP', 'CU'] },
  { id: 3, nameEn: 'Phoenicia Assurance (demo)', nameAr: 'فينيقيا للتأمين (تجريبي)', logo: 'phoenicia-assurance.svg', acceptsDestinationNationals: false, assistancePhone: '+961 1 555 703', quoteAdapter: 'catalogue', excluded: ['KP'] },
  { id: 1000, nameEn: 'Byblos Global Cover (demo)', nameAr: 'جبيل للتغطية العالمية (تجريبي)', logo: 'byblos-global.svg', acceptsDestinationNationals: true, assistancePhone: '+961 9 555 710', quoteAdapter: 'catalogue', excluded: [] },
  { id: 12, nameEn: 'Levant Shield (demo)', nameAr: 'درع المشرق (تجريبي)', logo: 'levant-shield.svg', acceptsDestinationNationals: false, assistancePhone: '+961 1 555 712', quoteAdapter: 'catalogue', excluded: ['KP'] },
  { id: 15, nameEn: 'Orontes Travel Insurance (demo)', nameAr: 'العاصي لتأمين السفر (تجريبي)', logo: 'orontes-travel.svg', acceptsDestinationNationals: true, assistancePhone: '+961 6 555 715', quoteAdapter: 'http', excluded: [] },
  { id: 21, nameEn: 'Tyre Harbour Assurance (demo)', nameAr: 'مرفأ صور للتأمين (تجريبي)', logo: 'tyre-harbour.svg', acceptsDestinationNationals: false, assistancePhone: '+961 7 555 721', quoteAdapter: 'catalogue', excluded: ['KP', 'IR'] },
];

export const AGENTS = [
  { id: 101, name: 'Rania Haddad (demo agent)', email: 'rania.agent@safar.example' },
  { id: 102, name: 'Karim Khoury (demo agent)', email: 'karim.agent@safar.example' },
];

export const COMPANY_INFO = {
  whatsappNumber: '+96170123456',
  tollFreeNumber: '+961 1 500 500',
  email: 'care@safar.example',
  social: [
    { network: 'facebook', url: 'https://www.facebook.com/safar.example' },
    { network: 'instagram', url: 'https://www.instagram.com/safar.example' },
    { network: 'linkedin', url: 'https://www.linkedin.com/company/safar-example' },
    { network: 'x', url: 'https://x.com/safar_example' },
  ],
  en: {
    name: 'Safar Insurance Brokers (demo)',
    address: 'Beirut Digital District, Building 1, Floor 4, Beirut, Lebanon',
    disclaimer:
      'Safar is a demonstration travel insurance broker. Insurers shown are fictional and no real cover is issued.',
  },
  ar: {
    name: 'Safar سفر لوساطة التأمين (تجريبي)',
    address: 'منطقة بيروت الرقمية، المبنى 1، الطابق 4، بيروت، لبنان',
    disclaimer: '«سفر» وسيط تجريبي لتأمين السفر. شركات التأمين المعروضة وهمية، ولا تصدر عنها أي تغطية حقيقية.',
  },
};

/**
 * Demo coupons (issue 10), listed in the README: one of each kind the checkout handles. The seed
 * inserts only codes that are missing, so a coupon the broker changed or disabled stays as is.
 * Codes are stored as couponCodeText makes them (upper case, no spaces).
 */
export const DEMO_COUPONS = [
  { code: 'SAFAR10', discountType: 1, discountValue: 10, validFrom: '2026-01-01', validTo: '2099-12-31', usageLimit: null, providerId: null },
  /** $25 off plan and add-ons together (cents). */
  { code: 'SAVE25', discountType: 2, discountValue: 2_500, validFrom: '2026-01-01', validTo: '2099-12-31', usageLimit: null, providerId: null },
  /** The whole plan premium: add-ons and their VAT (and provider 3's stamp fee) are still paid. */
  { code: 'FREE100', discountType: 1, discountValue: 100, validFrom: '2026-01-01', validTo: '2099-12-31', usageLimit: 1_000, providerId: null },
  /** Expired: valid through 2025 only. */
  { code: 'OLD15', discountType: 1, discountValue: 15, validFrom: '2025-01-01', validTo: '2025-12-31', usageLimit: null, providerId: null },
  /** For Phoenicia Assurance's plans (provider 3) only. */
  { code: 'PHOENICIA20', discountType: 1, discountValue: 20, validFrom: '2026-01-01', validTo: '2099-12-31', usageLimit: null, providerId: 3 },
] as const;
