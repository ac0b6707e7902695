import type { ComboboxItem, ComboboxParsedItem, OptionsFilter } from '@mantine/core';
import type { Option } from '../../contract/endpoint';

/**
 * Country search for the destination, source and nationality selects (issue 8 row 11).
 * Customers type the name in either language, with or without hamza, with the spellings they
 * use every day ("امريكا", "UK"), and expect the country they mean first: Enter picks the
 * first option. So each option carries both languages' names and its aliases, and the filter
 * ranks exact matches, then prefixes (of the name or of one of its words), then the rest; among
 * equal matches the shorter name comes first, the country before its territories ("fr" in the
 * Arabic list: France, then French Southern Territories, whose Arabic name sorts first; issue 38).
 */

/** A select option that can be found by other names than its label. */
export interface SearchableOption extends Option {
  /** Names the option answers to besides its label: the other language's name and aliases. */
  searchNames?: string[];
}

/**
 * Everyday names of countries whose official names customers rarely type, by ISO 3166 alpha-2
 * code. Data, kept here in one place: add a row, not a rule.
 */
export const COUNTRY_ALIASES: Readonly<Record<string, readonly string[]>> = {
  US: ['USA', 'US', 'America', 'United States of America', 'امريكا', 'أمريكا', 'اميركا', 'أميركا', 'الولايات المتحدة الأمريكية'],
  GB: ['UK', 'Britain', 'Great Britain', 'England', 'بريطانيا', 'انجلترا', 'إنجلترا', 'انكلترا'],
  AE: ['UAE', 'Emirates', 'الامارات', 'الإمارات', 'امارات'],
  SA: ['KSA', 'Saudi', 'السعودية'],
  NL: ['Holland', 'هولندا'],
  CZ: ['Czech Republic', 'Czechia', 'التشيك'],
  TR: ['Turkey', 'تركيا'],
  // Former names neither data package carries in English.
  SZ: ['Swaziland'],
  MM: ['Burma'],
  CI: ['Ivory Coast', 'ساحل العاج'],
};

/** Arabic short vowels, shadda, sukun, superscript alef and the tatweel stretch. */
const ARABIC_MARKS = /[\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06ED\u0640]/g;
/** Latin combining accents left by NFD ("Réunion" → "Reunion"). */
const LATIN_MARKS = /[\u0300-\u036f]/g;

/**
 * One spelling for what customers type several ways: case and Latin accents; Arabic alef with
 * or without hamza or madda (أ إ آ ٱ → ا), ta marbuta and ha (ة → ه), alef maqsura and ya
 * (ى → ي), hamza on waw/ya (ؤ → و, ئ → ي), without tashkeel and tatweel; punctuation becomes
 * a space so "Bosnia-Herzegovina" has words.
 */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFD')
    .replace(LATIN_MARKS, '')
    .normalize('NFC')
    .replace(ARABIC_MARKS, '')
    .replace(/[أإآٱ]/g, 'ا')
    .replace(/ة/g, 'ه')
    .replace(/ى/g, 'ي')
    .replace(/ؤ/g, 'و')
    .replace(/ئ/g, 'ي')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** A word with the Arabic definite article dropped, so "امارات" starts "الامارات". */
const withoutArticle = (word: string) => (word.startsWith('ال') && word.length > 3 ? word.slice(2) : word);

/** Match ranks, best first; NONE is not listed. */
const EXACT = 0;
const NAME_PREFIX = 1;
const WORD_PREFIX = 2;
const CONTAINS = 3;
const NONE = 4;

/** How well one folded name matches a folded query. */
function rankName(name: string, query: string): number {
  if (name === query) return EXACT;
  if (name.startsWith(query) || withoutArticle(name).startsWith(query)) return NAME_PREFIX;
  const words = name.split(' ');
  if (words.some((word) => word.startsWith(query) || withoutArticle(word).startsWith(query))) return WORD_PREFIX;
  return name.includes(query) ? CONTAINS : NONE;
}

const namesOf = (item: ComboboxItem): string[] => {
  const extra = (item as Partial<SearchableOption>).searchNames;
  return Array.isArray(extra) ? [item.label, ...extra] : [item.label];
};

/** The best rank any of the option's names reaches for the query (NONE when none matches). */
export function rankOption(item: ComboboxItem, search: string): number {
  return matchOf(item, foldForSearch(search)).rank;
}

/** The option's best rank for a folded query, and the length of the shortest name that reaches it. */
function matchOf(item: ComboboxItem, query: string): { rank: number; length: number } {
  if (query === '') return { rank: EXACT, length: 0 };
  let best = { rank: NONE, length: Infinity };
  for (const name of namesOf(item)) {
    const folded = foldForSearch(name);
    const rank = rankName(folded, query);
    if (rank < best.rank || (rank === best.rank && folded.length < best.length)) best = { rank, length: folded.length };
  }
  return best;
}

const isGroup = (item: ComboboxParsedItem): item is Extract<ComboboxParsedItem, { group: unknown }> => 'group' in item;

/**
 * Options matching the search, best match first; among equal matches the shorter matching name
 * first (France before French Southern Territories, the United States before its Minor Outlying
 * Islands), then the list's own (collated) order. An empty search keeps the list's order.
 */
function rankOptions(options: ComboboxItem[], search: string): ComboboxItem[] {
  const query = foldForSearch(search);
  return options
    .map((item, index) => ({ item, index, ...matchOf(item, query) }))
    .filter((entry) => entry.rank < NONE)
    .sort((a, b) => a.rank - b.rank || a.length - b.length || a.index - b.index)
    .map((entry) => entry.item);
}

/**
 * Mantine's `filter` for country selects (Select and MultiSelect): ranked matches in both
 * languages, at most `limit` of them. Groups keep their order and rank inside themselves.
 */
export const countryOptionsFilter: OptionsFilter = ({ options, search, limit }) => {
  const result: ComboboxParsedItem[] = [];
  let left = limit;
  const flat: ComboboxItem[] = [];
  for (const option of options) {
    if (isGroup(option)) {
      const items = rankOptions(option.items, search).slice(0, left);
      left -= items.length;
      if (items.length > 0) result.push({ group: option.group, items });
    } else flat.push(option);
  }
  return [...result, ...rankOptions(flat, search).slice(0, Math.max(left, 0))];
};

/** Builds a searchable country option: label in the page language, every other name and the aliases. */
export function countryOption(country: {
  id: number;
  iso2: string;
  name: string;
  name_en: string;
  name_ar: string;
  /** Every other name the API knows (former, short, official, in both languages): "Czechia", "Turkey". */
  other_names?: readonly string[];
}): SearchableOption {
  const searchNames = [
    ...new Set([country.name_en, country.name_ar, ...(country.other_names ?? []), ...(COUNTRY_ALIASES[country.iso2.toUpperCase()] ?? [])]),
  ].filter((name) => name !== country.name);
  return { value: String(country.id), label: country.name, searchNames };
}
