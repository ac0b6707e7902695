import { readFileSync } from 'node:fs';
import { extractText, getDocumentProxy } from 'unpdf';

/**
 * Reads what the mailer wrote to the outbox (nodemailer's RFC 822 .eml files) and the PDFs they
 * carry: headers, the text and HTML parts decoded, the attached certificate's bytes and text.
 */

interface MimePart {
  headers: Map<string, string>;
  body: string;
}

function parsePart(raw: string): MimePart {
  const split = raw.indexOf('\r\n\r\n');
  const head = split === -1 ? raw : raw.slice(0, split);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: split === -1 ? '' : raw.slice(split + 4) };
}

/** Every leaf part of a message, multiparts opened recursively. */
function leafParts(part: MimePart): MimePart[] {
  const boundary = /boundary="?([^";]+)"?/i.exec(part.headers.get('content-type') ?? '')?.[1];
  if (!boundary) return [part];
  return part.body
    .split(`--${boundary}`)
    .slice(1, -1)
    .flatMap((chunk) => leafParts(parsePart(chunk.replace(/^\r\n/, ''))));
}

function decodeBody(part: MimePart): Buffer {
  const encoding = part.headers.get('content-transfer-encoding')?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64');
  if (encoding === 'quoted-printable') {
    const bytes = part.body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => `%${hex}`);
    return Buffer.from(decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25')), 'utf8');
  }
  return Buffer.from(part.body, 'utf8');
}

/** A header's RFC 2047 encoded words (=?UTF-8?B?…?= / =?UTF-8?Q?…?=) decoded. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([BQ])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeURIComponent(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, '%$1')),
    );
}

/** An .eml file of the outbox: recipient, subject, text and HTML parts, and the attached PDF. */
export function readEml(file: string) {
  const message = parsePart(readFileSync(file, 'latin1'));
  const parts = leafParts(message);
  const find = (type: string) => parts.find((part) => part.headers.get('content-type')?.startsWith(type));
  const text = find('text/plain');
  const html = find('text/html');
  const pdf = find('application/pdf');
  return {
    to: message.headers.get('to') ?? '',
    subject: decodeHeader(message.headers.get('subject') ?? ''),
    text: text ? decodeBody(text).toString('utf8') : '',
    html: html ? decodeBody(html).toString('utf8') : '',
    pdf: pdf ? { disposition: pdf.headers.get('content-disposition') ?? '', bytes: decodeBody(pdf) } : null,
  };
}

/** A PDF's text, pages joined, white space collapsed (unpdf takes its own copy of the bytes). */
export async function pdfTextOf(pdf: Buffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}
