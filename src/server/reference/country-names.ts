import iso from 'i18n-iso-countries';
import enNames from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import arNames from 'i18n-iso-countries/langs/ar.json' with { type: 'json' };

iso.registerLocale(enNames);
iso.registerLocale(arNames);

/** CLDR's names (Node's ICU), which follow renames sooner: "Czechia", "Türkiye", "إسواتيني". */
const cldr = {
  en: new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' }),
  ar: new Intl.DisplayNames(['ar'], { type: 'region', fallback: 'none' }),
};

function cldrName(lang: 'en' | 'ar', iso2: string): string | undefined {
  try {
    return cldr[lang].of(iso2);
  } catch {
    return undefined;
  }
}

/**
 * Every other name a country goes by in English and Arabic (issue 17 item 15): the data
 * package's official and alias names ("Czech Republic" and "Czechia", "Türkiye" and "Turkey",
 * the Arabic "سوازيلاند" for Eswatini) and CLDR's ("Myanmar (Burma)", "التشيك"), without the two
 * names the row already carries, so the selects find a country by whichever one is typed.
 */
export function countryOtherNames(iso2: string, known: readonly string[]): string[] {
  const key = `${iso2}\u0000${known.join('\u0000')}`;
  const cached = memo.get(key);
  if (cached) return cached;
  const names = [
    ...(iso.getName(iso2, 'en', { select: 'all' }) ?? []),
    ...(iso.getName(iso2, 'ar', { select: 'all' }) ?? []),
    cldrName('en', iso2),
    cldrName('ar', iso2),
  ];
  const seen = new Set(known);
  const out: string[] = [];
  for (const name of names) {
    if (!name || seen.has(name)) continue;
    seen.add(name);
    out.push(name);
  }
  memo.set(key, out);
  return out;
}

/** Names per country, worked out once (the countries list is asked for on every visit). */
const memo = new Map<string, string[]>();
