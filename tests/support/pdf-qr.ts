import { inflateSync } from 'node:zlib';
import jsQR from 'jsqr';

/**
 * Reads back the QR code of a policy certificate (issue 37 items 3–4): what a phone that scans
 * the printed certificate opens. The certificate draws its QR code as a PNG image
 * (certificate-pdf.ts, verificationMark), which PDFKit stores as an image XObject: this finds
 * each image in the PDF, decodes its pixels (FlateDecode, PNG predictors, grey, RGB or indexed
 * colours) with node's zlib, and hands them to jsQR with a white quiet zone around them.
 *
 * Used by the certificate's unit test (src/server/policies/pdf-qr.test.ts) and by end-to-end
 * tests that download a certificate. Throws when no image in the PDF is a readable QR code.
 */
export async function decodeCertificateQr(pdf: Buffer | Uint8Array): Promise<string> {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const file = new PdfFile(bytes);
  const tried: string[] = [];
  for (const image of file.images()) {
    const rgba = pixels(file, image);
    if (!rgba) {
      tried.push(`${image.width}x${image.height} (colours not read)`);
      continue;
    }
    const padded = withQuietZone(rgba, image.width, image.height);
    const code = jsQR(padded.data, padded.width, padded.height, { inversionAttempts: 'dontInvert' });
    if (code) return code.data;
    tried.push(`${image.width}x${image.height}`);
  }
  throw new Error(tried.length ? `no QR code in the PDF's images (${tried.join(', ')})` : 'the PDF has no image');
}

interface PdfImage {
  width: number;
  height: number;
  bits: number;
  dict: string;
  data: Buffer;
}

/** The few parts of a PDF this needs: objects by number, their dictionaries and streams. */
class PdfFile {
  private readonly text: string;

  constructor(private readonly bytes: Buffer) {
    this.text = bytes.toString('latin1');
  }

  /** Every image XObject whose stream this reader can decode (FlateDecode or none; a JPEG is passed over). */
  *images(): Generator<PdfImage> {
    for (const match of this.text.matchAll(/(\d+)\s+\d+\s+obj\b/g)) {
      const object = this.objectAt(match.index + match[0].length);
      if (!object?.stream || !/\/Subtype\s*\/Image\b/.test(object.dict)) continue;
      const width = this.number(object.dict, 'Width');
      const height = this.number(object.dict, 'Height');
      const data = decodable(object.dict) ? decodeStream(object.dict, object.stream) : null;
      if (!width || !height || !data) continue;
      yield { width, height, bits: this.number(object.dict, 'BitsPerComponent') ?? 8, dict: object.dict, data };
    }
  }

  /** The object whose body starts at `from`: its dictionary and, when it has one, its stream as stored. */
  objectAt(from: number): { dict: string; stream: Buffer | null } | null {
    const start = this.text.indexOf('<<', from);
    if (start < 0 || this.text.slice(from, start).trim()) return null;
    const end = balancedEnd(this.text, start);
    if (end < 0) return null;
    const dict = this.text.slice(start, end);
    const after = /^\s*stream\r?\n/.exec(this.text.slice(end, end + 20));
    if (!after) return { dict, stream: null };
    const length = this.number(dict, 'Length');
    if (length === null) return { dict, stream: null };
    const dataStart = end + after[0].length;
    return { dict, stream: this.bytes.subarray(dataStart, dataStart + length) };
  }

  /** The object numbered `id`; its stream as stored. */
  object(id: number) {
    const match = new RegExp(`(?:^|\\s)${id}\\s+0\\s+obj\\b`).exec(this.text);
    return match ? this.objectAt(match.index + match[0].length) : null;
  }

  /** A number entry, following an indirect reference ("/Length 12 0 R"). */
  number(dict: string, key: string): number | null {
    const match = new RegExp(`/${key}\\s+(\\d+)(\\s+\\d+\\s+R)?`).exec(dict);
    if (!match) return null;
    if (!match[2]) return Number(match[1]);
    const body = new RegExp(`(?:^|\\s)${match[1]}\\s+0\\s+obj\\s+(\\d+)\\s+endobj`).exec(this.text);
    return body ? Number(body[1]) : null;
  }
}

/** The index just after the `>>` that closes the `<<` at `start`. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  for (let index = start; index < text.length - 1; index++) {
    const pair = text.slice(index, index + 2);
    if (pair === '<<') {
      depth++;
      index++;
    } else if (pair === '>>') {
      depth--;
      index++;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}

const filtersOf = (dict: string) => [...(/\/Filter\s*(\[[^\]]*\]|\/\w+)/.exec(dict)?.[1] ?? '').matchAll(/\/(\w+)/g)].map((match) => match[1]);

/** Whether every filter of the stream is one this reader undoes. */
const decodable = (dict: string) => filtersOf(dict).every((filter) => filter === 'FlateDecode');

function decodeStream(dict: string, raw: Buffer): Buffer {
  let data = raw;
  // Only FlateDecode reaches here (decodable), once per time it is listed.
  for (let left = filtersOf(dict).length; left > 0; left--) data = inflateSync(data);
  const parms = /\/DecodeParms\s*<<([^>]*)>>/.exec(dict)?.[1] ?? '';
  const predictor = Number(/\/Predictor\s+(\d+)/.exec(parms)?.[1] ?? 1);
  if (predictor < 10) return data;
  const colors = Number(/\/Colors\s+(\d+)/.exec(parms)?.[1] ?? 1);
  const bits = Number(/\/BitsPerComponent\s+(\d+)/.exec(parms)?.[1] ?? 8);
  const columns = Number(/\/Columns\s+(\d+)/.exec(parms)?.[1] ?? 1);
  return unpredict(data, Math.ceil((colors * bits) / 8), Math.ceil((columns * colors * bits) / 8));
}

/** Undoes PNG row filters (None, Sub, Up, Average, Paeth), as PDF's predictors 10–15 write them. */
function unpredict(data: Buffer, bytesPerPixel: number, rowLength: number): Buffer {
  const rows = Math.floor(data.length / (rowLength + 1));
  const out = Buffer.alloc(rows * rowLength);
  for (let row = 0; row < rows; row++) {
    const filter = data[row * (rowLength + 1)]!;
    const input = row * (rowLength + 1) + 1;
    const at = row * rowLength;
    for (let index = 0; index < rowLength; index++) {
      const left = index >= bytesPerPixel ? out[at + index - bytesPerPixel]! : 0;
      const up = row > 0 ? out[at - rowLength + index]! : 0;
      const upLeft = row > 0 && index >= bytesPerPixel ? out[at - rowLength + index - bytesPerPixel]! : 0;
      const value = data[input + index]!;
      let predicted = 0;
      if (filter === 1) predicted = left;
      else if (filter === 2) predicted = up;
      else if (filter === 3) predicted = (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        predicted = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      }
      out[at + index] = (value + predicted) & 0xff;
    }
  }
  return out;
}

/** The image as RGBA, or null for a colour space this reader does not know. */
function pixels(file: PdfFile, image: PdfImage): Uint8ClampedArray | null {
  const space = /\/ColorSpace\s*(\[[^\]]*\]|\/\w+|\d+\s+\d+\s+R)/.exec(image.dict)?.[1] ?? '/DeviceGray';
  const count = image.width * image.height;
  const rgba = new Uint8ClampedArray(count * 4);
  const sample = samples(image);
  if (space === '/DeviceGray' || space === '/CalGray') {
    for (let index = 0; index < count; index++) rgba.set([sample(index), sample(index), sample(index), 255], index * 4);
    return rgba;
  }
  if (space === '/DeviceRGB' || space === '/CalRGB') {
    for (let index = 0; index < count; index++) rgba.set([sample(index * 3), sample(index * 3 + 1), sample(index * 3 + 2), 255], index * 4);
    return rgba;
  }
  const indexed = /^\[\s*\/Indexed\s*\/DeviceRGB\s+\d+\s+(?:(\d+)\s+\d+\s+R|<([0-9A-Fa-f\s]*)>)\s*\]$/.exec(space);
  if (!indexed) return null;
  const stored = indexed[1] ? file.object(Number(indexed[1])) : null;
  const palette = stored?.stream && decodable(stored.dict) ? decodeStream(stored.dict, stored.stream) : indexed[2] ? Buffer.from(indexed[2].replace(/\s/g, ''), 'hex') : null;
  if (!palette) return null;
  for (let index = 0; index < count; index++) {
    const entry = sample(index) * 3;
    rgba.set([palette[entry] ?? 0, palette[entry + 1] ?? 0, palette[entry + 2] ?? 0, 255], index * 4);
  }
  return rgba;
}

/** The n-th sample of the image (rows start on a byte), scaled to 0–255 except for palette indices. */
function samples(image: PdfImage): (n: number) => number {
  const { bits, data, width, dict } = image;
  if (bits === 8) return (n) => data[n] ?? 0;
  const perPixel = /\/DeviceRGB/.test(dict) && !/\/Indexed/.test(dict) ? 3 : 1;
  const rowBits = Math.ceil((width * perPixel * bits) / 8) * 8;
  const scale = /\/Indexed/.test(dict) ? 1 : 255 / (2 ** bits - 1);
  return (n) => {
    const row = Math.floor(n / (width * perPixel));
    const bit = row * rowBits + (n % (width * perPixel)) * bits;
    const byte = data[bit >> 3] ?? 0;
    return ((byte >> (8 - bits - (bit & 7))) & (2 ** bits - 1)) * scale;
  };
}

/** The pixels inside a white border an eighth of the image wide: the quiet zone a scanner needs. */
function withQuietZone(rgba: Uint8ClampedArray, width: number, height: number) {
  const pad = Math.max(8, Math.round(Math.max(width, height) / 8));
  const outWidth = width + 2 * pad;
  const outHeight = height + 2 * pad;
  const data = new Uint8ClampedArray(outWidth * outHeight * 4).fill(255);
  for (let row = 0; row < height; row++) data.set(rgba.subarray(row * width * 4, (row + 1) * width * 4), ((row + pad) * outWidth + pad) * 4);
  return { data, width: outWidth, height: outHeight };
}
