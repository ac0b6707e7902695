import type { Bidi } from 'bidi-js';

/**
 * Right-to-left lines for PDFKit. PDFKit shapes Arabic through fontkit (joining forms, lam-alef,
 * each Arabic word's letters drawn from the right) but runs no bidi algorithm: the words of a
 * line, and its Latin names and numbers, come out in the order they were typed, left to right.
 * So each line is ordered here with bidi-js (the Unicode algorithm, isolates included) and drawn
 * piece by piece from the left: a word of Arabic letters is handed over in reading order
 * (fontkit reverses and joins it), everything else (spaces, punctuation, Latin, digits) as it is
 * seen. A Latin name, a passport number, an amount or a reference wrapped in `ltr()` stays one
 * left-to-right unit wherever it stands in the Arabic line.
 */

let bidiInstance: Bidi | null = null;
let loading: Promise<void> | null = null;

/**
 * Loads bidi-js and builds its tables, once, when the first Arabic PDF is drawn (never at the
 * server's start); every function below needs it done.
 */
export function loadBidi(): Promise<void> {
  loading ??= import('bidi-js').then((module) => {
    bidiInstance = module.default();
  });
  return loading;
}

function bidi(): Bidi {
  if (!bidiInstance) throw new Error('pdf-rtl: await loadBidi() before laying out right-to-left text');
  return bidiInstance;
}

/** LEFT-TO-RIGHT ISOLATE … POP DIRECTIONAL ISOLATE: one unit read left to right (mail/bidi.ts does the same in e-mails). */
export const ltr = (text: string): string => `\u2066${text}\u2069`;

/** Direction marks and isolates: they order the line and are never drawn (the font has no glyph for them). */
const CONTROL = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const CONTROLS = new RegExp(CONTROL.source, 'g');
/**
 * Letters and marks fontkit must shape and reverse as Arabic (tatweel and the joiners keep a word
 * whole). Not the Arabic-Indic digits and separators: the bidi order already reads them left to right.
 */
const ARABIC = /[\u0600-\u065f\u066d-\u06ef\u06fa-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff\u200c\u200d]/;

export type BaseDirection = 'rtl' | 'ltr' | 'auto';

/** One piece of a line as drawn, left to right: `text` is what PDFKit is given. */
export interface Piece {
  text: string;
  arabic: boolean;
}

/**
 * The pieces of `text[start..end]` (one line of the paragraph whose levels are given), left to
 * right on the page. Characters in a right-to-left run are mirrored ("(" draws as ")").
 */
function piecesOf(text: string, levels: ReturnType<Bidi['getEmbeddingLevels']>, start: number, end: number): Piece[] {
  // The whole string's indices come back, this line's reordered in place.
  const order = bidi().getReorderedIndices(text, levels, start, end).slice(start, end + 1);
  const mirrored = bidi().getMirroredCharactersMap(text, levels.levels, start, end);
  const pieces: { chars: string[]; arabic: boolean }[] = [];
  for (const index of order) {
    const char = mirrored.get(index) ?? text[index]!;
    if (CONTROL.test(char)) continue;
    const arabic = ARABIC.test(char);
    const last = pieces.at(-1);
    if (last && last.arabic === arabic) last.chars.push(char);
    else pieces.push({ chars: [char], arabic });
  }
  // An Arabic run is seen here from the left; fontkit wants it in reading order and reverses it itself.
  return pieces.map(({ chars, arabic }) => ({ arabic, text: (arabic ? [...chars].reverse() : chars).join('') }));
}

export interface RtlTextOptions {
  width: number;
  align?: 'left' | 'right' | 'center';
  base?: BaseDirection;
  /**
   * Points from one line's top to the next's, and from a line's top to its baseline: the font's
   * own (PDFKit's) when not given. Vazirmatn's are roomy (1.56 em), the certificate packs tighter.
   */
  lineHeight?: number;
  baseline?: number;
}

/** Where each line of `text` starts and ends (inclusive), broken at spaces to fit `width`. */
function lineRanges(doc: PDFKit.PDFDocument, text: string, width: number): [number, number][] {
  const space = doc.widthOfString(' ');
  const words = [...text.matchAll(/\S+/g)].map((match) => ({ start: match.index, end: match.index + match[0].length - 1, width: doc.widthOfString(match[0].replace(CONTROLS, '')) }));
  const lines: [number, number][] = [];
  let line: { start: number; end: number; width: number } | null = null;
  for (const word of words) {
    if (line && line.width + space + word.width <= width) {
      line.end = word.end;
      line.width += space + word.width;
    } else {
      if (line) lines.push([line.start, line.end]);
      line = { ...word };
    }
  }
  if (line) lines.push([line.start, line.end]);
  return lines;
}

/** The lines of `text` within `width` in the current font, each as its pieces left to right. */
export function rtlLines(doc: PDFKit.PDFDocument, text: string, options: RtlTextOptions): Piece[][] {
  if (!text.trim()) return [];
  const levels = bidi().getEmbeddingLevels(text, options.base ?? 'rtl');
  return lineRanges(doc, text, options.width).map(([start, end]) => piecesOf(text, levels, start, end));
}

/** The height `text` takes within `width` in the current font and size. */
export function heightOfRtl(doc: PDFKit.PDFDocument, text: string, options: RtlTextOptions): number {
  return Math.max(rtlLines(doc, text, options).length, 1) * (options.lineHeight ?? doc.currentLineHeight(true));
}

/**
 * Draws `text` in the box from `x`, `width` wide, from `y` down, right-aligned unless told
 * otherwise, in the current font, size and colour; leaves doc.y under the last line.
 */
export function rtlText(doc: PDFKit.PDFDocument, text: string, x: number, y: number, options: RtlTextOptions): PDFKit.PDFDocument {
  const lineHeight = options.lineHeight ?? doc.currentLineHeight(true);
  const baseline = options.baseline;
  let top = y;
  for (const pieces of rtlLines(doc, text, options)) {
    const widths = pieces.map((piece) => doc.widthOfString(piece.text));
    const total = widths.reduce((sum, width) => sum + width, 0);
    const align = options.align ?? 'right';
    let left = align === 'left' ? x : align === 'center' ? x + (options.width - total) / 2 : x + options.width - total;
    pieces.forEach((piece, index) => {
      if (baseline === undefined) doc.text(piece.text, left, top, { lineBreak: false });
      else doc.text(piece.text, left, top + baseline, { lineBreak: false, baseline: 'alphabetic' });
      left += widths[index]!;
    });
    top += lineHeight;
  }
  doc.x = x;
  doc.y = top;
  return doc;
}
