import type { Language } from './endpoint';

/**
 * A list in the language's own punctuation, as Intl.ListFormat's short unit list writes it:
 * "France, Italy" (no "and" before the last item) and "فرنسا وإيطاليا" / "فرنسا، وألمانيا،
 * وإيطاليا". One spelling for the SPA and the server's mail and pages. Written out, not made
 * with Intl: the list formatter's locale data cost the quote list's first render 90 ms on a
 * phone (issue 19).
 */
export function formatList(items: readonly string[], lang: Language): string {
  if (lang === 'en' || items.length < 2) return items.join(', ');
  const [first, ...rest] = items;
  return rest.length === 1 ? `${first} و${rest[0]}` : `${first}${rest.map((item) => `، و${item}`).join('')}`;
}
