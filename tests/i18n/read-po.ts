import { readFileSync } from 'node:fs';

const unquote = (text: string) => JSON.parse(`"${text}"`) as string;

/** Reads msgid/msgstr pairs of a PO file (single-line entries, as Lingui writes them). */
export function readPo(file: string): Map<string, string> {
  const entries = new Map<string, string>();
  const source = readFileSync(file, 'utf8');
  const pattern = /msgid "((?:[^"\\]|\\.)*)"\nmsgstr "((?:[^"\\]|\\.)*)"/g;
  for (const match of source.matchAll(pattern)) {
    if (match[1]) entries.set(unquote(match[1]), unquote(match[2]!));
  }
  return entries;
}
