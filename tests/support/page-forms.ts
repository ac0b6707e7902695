/**
 * Reading the forms of the server's own HTML pages (the payments page, the APS sandbox's pages),
 * as a browser would post them. No test-runner imports, so plain scripts (the soak) use it too.
 */

/** An HTML form as the browser would post it: its target and its hidden fields. */
export interface PageForm {
  id: string | undefined;
  action: string;
  method: string;
  /** Hidden inputs, name -> value, entities decoded. */
  fields: Record<string, string>;
  /** Every input element's attributes, in order (visible ones included). */
  inputs: Record<string, string>[];
  /** The submit buttons' name=value pairs (a button without a name has none). */
  buttons: Record<string, string>[];
}

const decode = (text: string) =>
  text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of text.matchAll(/([A-Za-z_:][-A-Za-z0-9_:.]*)(?:="([^"]*)")?/g)) out[match[1]!.toLowerCase()] = decode(match[2] ?? '');
  return out;
}

/**
 * The forms of a page the server wrote. Its pages quote every attribute value with " and escape
 * it, so a tag never holds a raw ">" or '"': reading them with patterns is exact for these pages.
 */
export function formsOf(html: string): PageForm[] {
  return [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].map((match) => {
    const form = attributes(match[1]!);
    const inputs = [...match[2]!.matchAll(/<input\b([^>]*)>/g)].map((input) => attributes(input[1]!));
    const fields: Record<string, string> = {};
    for (const input of inputs) if (input.type === 'hidden' && input.name !== undefined) fields[input.name] = input.value ?? '';
    const buttons = [...match[2]!.matchAll(/<button\b([^>]*)>/g)].map((button) => attributes(button[1]!));
    return { id: form.id, action: form.action ?? '', method: form.method ?? 'get', fields, inputs, buttons };
  });
}
