// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { ComboboxItem } from '@mantine/core';
import { countryOption, countryOptionsFilter, foldForSearch } from './country-search';

/** A few countries as the API answers them in full form, in Arabic collation order. */
const records = [
  { id: 75, iso2: 'TF', name_en: 'French Southern Territories', name_ar: 'أراض فرنسية جنوبية وأنتارتيكية' },
  { id: 3, iso2: 'AE', name_en: 'United Arab Emirates', name_ar: 'الإمارات العربية المتحدة' },
  { id: 4, iso2: 'US', name_en: 'United States of America', name_ar: 'الولايات المتحدة' },
  { id: 5, iso2: 'GB', name_en: 'United Kingdom', name_ar: 'المملكة المتحدة' },
  { id: 6, iso2: 'PF', name_en: 'French Polynesia', name_ar: 'بولينزيا الفرنسية' },
  { id: 7, iso2: 'UM', name_en: 'United States Minor Outlying Islands', name_ar: 'جزر الولايات المتحدة' },
  { id: 8, iso2: 'AS', name_en: 'American Samoa', name_ar: 'ساموا الأمريكية' },
  { id: 9, iso2: 'SA', name_en: 'Saudi Arabia', name_ar: 'السعودية' },
  { id: 10, iso2: 'GF', name_en: 'French Guiana', name_ar: 'غويانا الفرنسية' },
  { id: 2, iso2: 'FR', name_en: 'France', name_ar: 'فرنسا' },
  { id: 11, iso2: 'QA', name_en: 'Qatar', name_ar: 'قطر' },
  { id: 12, iso2: 'MA', name_en: 'Morocco', name_ar: 'المغرب' },
];

const optionsIn = (lang: 'en' | 'ar') => {
  const sorted = [...records].sort((a, b) => (lang === 'ar' ? a.name_ar.localeCompare(b.name_ar, 'ar') : a.name_en.localeCompare(b.name_en, 'en')));
  return sorted.map((record) => countryOption({ ...record, name: lang === 'ar' ? record.name_ar : record.name_en }));
};

/** The labels Mantine would list for what the customer typed. */
const search = (lang: 'en' | 'ar', text: string, limit = Infinity) =>
  countryOptionsFilter({ options: optionsIn(lang), search: text, limit }).map((item) => (item as ComboboxItem).label);

describe('row 11: country search in both languages, best match first', () => {
  it('row 11: "فرن" lists France first, before French Southern Territories (Enter picks the first)', () => {
    const found = search('ar', 'فرن');
    expect(found[0]).toBe('فرنسا');
    expect(found).toContain('أراض فرنسية جنوبية وأنتارتيكية');
  });

  it('issue 38: France comes before the French territories whatever the list\'s order: "fr" in the Arabic list, whose order puts أراض فرنسية… first', () => {
    expect(optionsIn('ar')[0]!.label).toBe('أراض فرنسية جنوبية وأنتارتيكية');
    const typed = ['fr', 'Fr', 'fra', 'فر', 'فرن', 'فرنس'];
    expect(typed.map((text) => [text, search('ar', text)[0]])).toEqual(typed.map((text) => [text, 'فرنسا']));
    expect(search('ar', 'fr')).toEqual(['فرنسا', 'غويانا الفرنسية', 'بولينزيا الفرنسية', 'أراض فرنسية جنوبية وأنتارتيكية']);
    expect(search('en', 'فرن')[0]).toBe('France');
  });

  it('row 11: "امريكا" and "أمريكا" find the United States first', () => {
    expect(search('ar', 'امريكا')[0]).toBe('الولايات المتحدة');
    expect(search('ar', 'أمريكا')[0]).toBe('الولايات المتحدة');
    expect(search('en', 'america')[0]).toBe('United States of America');
  });

  it('row 11: Latin names find the Arabic label in the Arabic interface ("France" → فرنسا)', () => {
    expect(search('ar', 'France')[0]).toBe('فرنسا');
    expect(search('ar', 'france')[0]).toBe('فرنسا');
    expect(search('ar', 'Qat')).toEqual(['قطر']);
  });

  it('row 11: Arabic names find the English label in the English interface', () => {
    expect(search('en', 'فرنسا')[0]).toBe('France');
    expect(search('en', 'قطر')).toEqual(['Qatar']);
  });

  it('row 11: hamza, madda, ta marbuta, alef maqsura, tashkeel and tatweel variants all match', () => {
    expect(search('ar', 'الامارات')[0]).toBe('الإمارات العربية المتحدة');
    expect(search('ar', 'إمارات')[0]).toBe('الإمارات العربية المتحدة');
    expect(search('ar', 'السعوديه')[0]).toBe('السعودية');
    expect(search('ar', 'فَرَنْسـا')[0]).toBe('فرنسا');
    expect(foldForSearch('مصطفى')).toBe(foldForSearch('مصطفي'));
    expect(foldForSearch('آسيا')).toBe(foldForSearch('اسيا'));
    expect(foldForSearch('Réunion')).toBe('reunion');
  });

  it('row 11: common aliases: USA, UK, UAE', () => {
    expect(search('en', 'USA')[0]).toBe('United States of America');
    expect(search('en', 'uk')[0]).toBe('United Kingdom');
    expect(search('ar', 'UAE')[0]).toBe('الإمارات العربية المتحدة');
  });

  it('row 11: a word prefix ranks above a match inside a word; ties put the shorter name first, then keep the list order', () => {
    // "Fren" starts the name of three territories; "States" starts a word of two, the country's the shorter name.
    expect(search('en', 'Fren')).toEqual(['French Guiana', 'French Polynesia', 'French Southern Territories']);
    expect(search('en', 'states')).toEqual(['United States of America', 'United States Minor Outlying Islands']);
    // "rance" only sits inside "France".
    expect(search('en', 'rance')).toEqual(['France']);
  });

  it('row 11: the definite article does not hide a prefix ("مغرب" finds المغرب)', () => {
    expect(search('ar', 'مغرب')).toEqual(['المغرب']);
  });

  it('row 11: an empty search lists everything in order, and the limit is kept', () => {
    expect(search('ar', '  ')).toEqual(optionsIn('ar').map((option) => option.label));
    expect(search('en', 'united', 2)).toHaveLength(2);
    expect(search('en', 'zzz')).toEqual([]);
  });
});

describe('issue 17 item 15: a country answers to all its names, in both languages', () => {
  /** As the countries endpoint answers them: the stored names and every other name (other_names). */
  const renamed = [
    { id: 203, iso2: 'CZ', name_en: 'Czech Republic', name_ar: 'جمهورية التشيك', other_names: ['Czechia', 'التشيك'] },
    { id: 792, iso2: 'TR', name_en: 'Türkiye', name_ar: 'تركيا', other_names: ['Turkey'] },
    { id: 748, iso2: 'SZ', name_en: 'Eswatini', name_ar: 'سوازيلاند', other_names: ['إسواتيني'] },
    { id: 104, iso2: 'MM', name_en: 'Myanmar', name_ar: 'بورما', other_names: ['Myanmar (Burma)', 'ميانمار (بورما)'] },
    { id: 250, iso2: 'FR', name_en: 'France', name_ar: 'فرنسا' },
  ];
  const find = (lang: 'en' | 'ar', text: string) =>
    countryOptionsFilter({
      options: renamed.map((record) => countryOption({ ...record, name: lang === 'ar' ? record.name_ar : record.name_en })),
      search: text,
      limit: Infinity,
    }).map((item) => (item as ComboboxItem).label);

  it('"Czechia" finds the Czech Republic, in English and in Arabic; "التشيك" too', () => {
    expect(find('en', 'Czechia')).toEqual(['Czech Republic']);
    expect(find('ar', 'czechia')).toEqual(['جمهورية التشيك']);
    expect(find('en', 'التشيك')).toEqual(['Czech Republic']);
    expect(find('en', 'Czech Republic')).toEqual(['Czech Republic']);
  });

  it('Türkiye and Turkey, Eswatini and Swaziland, Myanmar and Burma', () => {
    expect(find('en', 'Turkey')).toEqual(['Türkiye']);
    expect(find('en', 'turkiye')).toEqual(['Türkiye']);
    expect(find('en', 'Swaziland')).toEqual(['Eswatini']);
    expect(find('ar', 'Swaziland')).toEqual(['سوازيلاند']);
    expect(find('en', 'Burma')).toEqual(['Myanmar']);
  });

  it('Arabic alternatives from the API: "إسواتيني" finds سوازيلاند, "ميانمار" finds بورما', () => {
    expect(find('ar', 'إسواتيني')).toEqual(['سوازيلاند']);
    expect(find('ar', 'اسواتيني')).toEqual(['سوازيلاند']);
    expect(find('ar', 'ميانمار')).toEqual(['بورما']);
    expect(find('en', 'ميانمار')).toEqual(['Myanmar']);
  });
});
