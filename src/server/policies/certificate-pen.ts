import type { ArabicFonts } from './certificate-fonts';
import { heightOfRtl, rtlText, type BaseDirection } from './pdf-rtl';

/**
 * How the certificate writes, in English or in Arabic: one layout (certificate-pdf.ts) drawn in
 * English coordinates, which the Arabic pen mirrors: a box `width` wide at `x` from the left
 * margin is drawn as wide at the same distance from the right one, and text aligned left is
 * aligned right. English is PDFKit's Helvetica (WinAnsi: pdfText); Arabic the embedded font
 * (certificate-fonts.ts), each line ordered right to left by pdf-rtl.ts.
 */

export type PenStyle = 'regular' | 'bold' | 'code';

export interface TextBox {
  width: number;
  align?: 'left' | 'right' | 'center';
  /** Arabic only: a line of Latin text (the broker's address) may read left to right: 'auto' takes its first letter's direction. */
  base?: BaseDirection;
}

export interface Pen {
  rtl: boolean;
  /** Sets the font for what follows; returns the document to chain fillColor and the like. */
  font: (style: PenStyle, size: number) => PDFKit.PDFDocument;
  /** The left edge, on the page, of a box `width` wide whose left edge is `x` in the English layout. */
  x: (x: number, width: number) => number;
  /** Draws `text` in the box, wrapping within its width; doc.y is left under it. */
  text: (text: string, x: number, y: number, box: TextBox) => void;
  /** The height `text` takes in the box, in the current font. */
  heightOf: (text: string, box: TextBox) => number;
}

/**
 * WinAnsi, the encoding of PDFKit's built-in Helvetica: Latin-1 and the Windows-1252 extras
 * (curly quotes, dashes, €). Anything else would print as unrelated glyphs.
 */
const WIN_ANSI_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const encodable = (char: string) => {
  const code = char.codePointAt(0)!;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRAS.has(char);
};

/**
 * Text as Helvetica can print it. Review names are Latin only, but country and plan names come
 * from data a broker edits: a letter with an accent Helvetica lacks loses the accent (ő → o),
 * and any other character becomes "?", so nothing prints as unrelated glyphs or breaks the PDF.
 */
export function pdfText(text: string): string {
  return printable(text, encodable);
}

function printable(text: string, has: (char: string) => boolean): string {
  let out = '';
  for (const char of text.normalize('NFC')) {
    if (has(char)) out += char;
    else if (/\s/.test(char)) out += ' ';
    else {
      const base = char.normalize('NFD').replace(/\p{M}/gu, '');
      out += base.length > 0 && [...base].every(has) ? base : '?';
    }
  }
  return out;
}

const HELVETICA: Record<PenStyle, string> = { regular: 'Helvetica', bold: 'Helvetica-Bold', code: 'Courier-Bold' };

export function englishPen(doc: PDFKit.PDFDocument): Pen {
  return {
    rtl: false,
    font: (style, size) => doc.font(HELVETICA[style]).fontSize(size),
    x: (x) => x,
    text: (text, x, y, box) => {
      doc.text(pdfText(text), x, y, { width: box.width, align: box.align });
    },
    heightOf: (text, box) => doc.heightOfString(pdfText(text), { width: box.width }),
  };
}

/** Isolates and direction marks order the line (pdf-rtl.ts); they are not drawn. */
const BIDI_CONTROL = /^[\u200e\u200f\u202a-\u202e\u2066-\u2069]$/u;

/** The embedded font's own glyph check (fontkit, behind PDFKit's font object). */
type FontWithGlyphs = { font?: { hasGlyphForCodePoint?: (codePoint: number) => boolean } };

export function arabicPen(doc: PDFKit.PDFDocument, fonts: ArabicFonts, left: number, width: number): Pen {
  doc.registerFont('arabic', fonts.regular);
  doc.registerFont('arabic-bold', fonts.bold);
  const names: Record<PenStyle, string> = { regular: 'arabic', bold: 'arabic-bold', code: 'Courier-Bold' };
  let style: PenStyle = 'regular';
  let size = 10;
  // Vazirmatn's glyphs, marks included, reach 0.9 em above the baseline and 0.45 below.
  const lines = () => (style === 'code' ? {} : { lineHeight: size * 1.35, baseline: size * 0.9 });
  const mirror = (x: number, boxWidth: number) => 2 * left + width - x - boxWidth;
  const flip = (align: TextBox['align']) => (align === 'right' ? 'left' : align === 'center' ? 'center' : 'right');
  // A character the font lacks prints as "?" (as in English), never as an empty box.
  const drawable = (text: string) => {
    if (style === 'code') return pdfText(text);
    const font = (doc as unknown as { _font?: FontWithGlyphs })._font?.font;
    const has = (char: string) => BIDI_CONTROL.test(char) || (font?.hasGlyphForCodePoint?.(char.codePointAt(0)!) ?? true);
    return printable(text, has);
  };
  return {
    rtl: true,
    font: (next, nextSize) => {
      style = next;
      size = nextSize;
      return doc.font(names[next]).fontSize(nextSize);
    },
    x: mirror,
    text: (text, x, y, box) => {
      rtlText(doc, drawable(text), mirror(x, box.width), y, { width: box.width, align: flip(box.align), base: box.base, ...lines() });
    },
    heightOf: (text, box) => heightOfRtl(doc, drawable(text), { width: box.width, base: box.base, ...lines() }),
  };
}
