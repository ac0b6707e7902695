import type { Language } from '../../contract/endpoint';
import { escapeHtml } from '../http/html';

/**
 * A short letter to a customer (the refund and cancellation e-mails): the greeting, one paragraph
 * per line, and the sign-off, as plain text and as simple HTML with the same words, right to left
 * in Arabic.
 */
export function letter(lang: Language, hello: string, lines: readonly string[], bye: string): { text: string; html: string } {
  const text = [hello, '', ...lines, '', bye].join('\n');
  const html = `<!doctype html>
<html lang="${lang}" dir="${lang === 'ar' ? 'rtl' : 'ltr'}"><body style="font-family: Arial, sans-serif; line-height: 1.5">
<p>${escapeHtml(hello)}</p>
${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n')}
<p>${escapeHtml(bye)}</p>
</body></html>`;
  return { text, html };
}
