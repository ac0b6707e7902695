import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

/**
 * The Arabic certificate's font, Vazirmatn (OFL), embedded from the npm package
 * @expo-google-fonts/vazirmatn (static TTF; PDFKit subsets it). One font for Arabic and Latin, so
 * a mixed line keeps one baseline. Chosen over Noto Sans/Naskh Arabic as packaged today: those
 * draw a dotted letter as a dotless base plus its dots, so ر and ز, ب and ت share a glyph and
 * text copied or searched in the PDF came out with the wrong letters (docs/decisions.md).
 *
 * Found from this module's own place (the server bundle keeps each source's import.meta.url and
 * leaves packages in node_modules), and read on the first Arabic certificate, not at start.
 */
const require = createRequire(import.meta.url);

export const ARABIC_FONT_FILES = {
  regular: '@expo-google-fonts/vazirmatn/400Regular/Vazirmatn_400Regular.ttf',
  bold: '@expo-google-fonts/vazirmatn/700Bold/Vazirmatn_700Bold.ttf',
} as const;

/** The PostScript name PDFKit writes as the embedded font's BaseFont (after its subset tag). */
export const ARABIC_FONT_NAME = 'Vazirmatn';

export interface ArabicFonts {
  regular: Buffer;
  bold: Buffer;
}

let loading: Promise<ArabicFonts> | null = null;

/** The font files' bytes, read once (about 200 KB each). */
export function arabicFonts(): Promise<ArabicFonts> {
  loading ??= Promise.all([readFile(require.resolve(ARABIC_FONT_FILES.regular)), readFile(require.resolve(ARABIC_FONT_FILES.bold))]).then(([regular, bold]) => ({ regular, bold }));
  // A failed read (a broken install) is tried again on the next certificate, not kept.
  loading.catch(() => {
    loading = null;
  });
  return loading;
}
