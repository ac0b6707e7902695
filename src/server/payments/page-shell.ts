import type { Language } from '../../contract/endpoint';
import { dollarsAndCents } from '../../contract/money';
import { escapeHtml } from '../http/html';

/**
 * What the server's own HTML pages share: the payments page /pay/<reference> and the embedded
 * APS sandbox gateway. They sit outside the SPA (no React, no Mantine), so their look is this
 * one style sheet in the app's colours (Safar blue #0a47b2, navy #0b1f3a, cedar green), written
 * with logical properties so one sheet serves English and Arabic (dir="rtl") alike. The
 * Content-Security-Policy allows inline styles but no inline scripts and no event handlers, so
 * these pages carry none: their scripts are external files of this origin.
 */

/**
 * "$94.57": what a customer is asked to pay, to the cent, as from the SPA's checkout price
 * summary on (RULINGS 26), with Western digits in both languages.
 */
export function formatDollars(cents: number): string {
  return `$${dollarsAndCents(cents)}`;
}

/**
 * A day stored as "YYYY-MM-DD" the way the SPA writes it (src/web/i18n/format.ts): "1 Apr 2026",
 * "1 نيسان 2026" with the Levantine month names and Western digits. Anything else is shown as it is.
 */
export function formatIsoDay(iso: string, lang: Language): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!match) return iso;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return new Intl.DateTimeFormat(lang === 'ar' ? 'ar-LB-u-nu-latn' : 'en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(date);
}

/**
 * A value that reads left to right whatever the page's direction (an amount, a name, a card
 * number): isolated, so an Arabic line cannot move its "$" or "+" to the other side.
 */
export const ltrHtml = (text: string): string => `<bdi class="ltr">${escapeHtml(text)}</bdi>`;

/**
 * A payment reference or an amount in a list of facts: left to right and on one line, so a
 * narrow Arabic page never breaks "SAF42-MFX3K2A1-…" at a hyphen, nor shows that hyphen at the
 * far end of a piece (issue 21).
 */
export const unbrokenLtrHtml = (text: string): string => `<bdi class="ltr unbroken">${escapeHtml(text)}</bdi>`;

/** The Safar mark of the SPA's header (src/web/shell/logo.tsx), decorative. */
export const LOGO_MARK = `<svg width="36" height="36" viewBox="0 0 48 48" aria-hidden="true" focusable="false"><rect width="48" height="48" rx="12" fill="#0a47b2"/><path d="M10 33c8-4 20-4 28 0" stroke="#81d3aa" stroke-width="3" fill="none" stroke-linecap="round"/><path d="M12 24 37 13l-7 20-6-7-6 4 1-6z" fill="#fff"/><path d="M24 26 37 13" stroke="#0a47b2" stroke-width="1.5"/></svg>`;

/**
 * Script source that reloads a page the browser restored from its back/forward cache (issue 33
 * item 3). `Cache-Control: no-store` keeps these pages out of the HTTP cache, but Chromium 150
 * still restores a no-store page from the back/forward cache as it was left, with `persisted` set:
 * Back after a declined card showed the payments page's live Pay button for a reference the gateway
 * had answered already. A reload asks the server, which knows what the order has become since.
 */
export const RELOAD_WHEN_RESTORED = `window.addEventListener('pageshow', function (event) {
  if (event.persisted) location.reload();
});
`;

/** Mobile first: one column at 320–375 px, a wider card with two-column facts from 36em. */
const STYLE = `
  :root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans Arabic", "Noto Naskh Arabic", sans-serif; line-height: 1.5; }
  *, *::before, *::after { box-sizing: border-box; }
  body { margin: 0; background: #f4f6f8; color: #0b1f3a; -webkit-text-size-adjust: 100%; }
  .top { display: flex; align-items: center; gap: 0.6rem; padding: 0.75rem 1rem; background: #fff; border-block-end: 1px solid #dde3ec; }
  .top .name { font-weight: 800; font-size: 1.25rem; }
  .top .name span { color: #1551c6; font-weight: 700; }
  main { margin: 1rem auto 2rem; padding: 1.25rem 1rem; max-width: 36rem; background: #fff; border-radius: 12px; box-shadow: 0 1px 4px rgba(11, 31, 58, 0.08); }
  h1 { font-size: 1.375rem; line-height: 1.3; margin: 0 0 0.75rem; }
  p { margin: 0 0 1rem; }
  a { color: #0a47b2; }
  dl { margin: 1rem 0; }
  dt { color: #495366; font-size: 0.875rem; }
  dd { margin: 0 0 0.75rem; font-weight: 600; overflow-wrap: anywhere; }
  dd ul { margin: 0; padding: 0; list-style: none; }
  .total { display: flex; justify-content: space-between; align-items: baseline; gap: 1rem; padding: 0.75rem 1rem; margin: 0 0 1.25rem; background: #e8f1ff; border-radius: 8px; }
  .total strong { font-size: 1.5rem; }
  h2 { font-size: 1rem; margin: 1.25rem 0 0.5rem; }
  .lines { width: 100%; border-collapse: collapse; margin: 0 0 0.75rem; }
  .lines th, .lines td { padding-block: 0.375rem; border-block-end: 1px solid #eef1f5; font-weight: 400; }
  .lines th { text-align: start; padding-inline-end: 1rem; }
  .lines td { text-align: end; font-weight: 600; white-space: nowrap; }
  .muted { color: #495366; font-size: 0.875rem; }
  .notice { padding: 0.75rem 1rem; margin: 0 0 1.25rem; border-radius: 8px; background: #fff4d6; border: 1px solid #e0b000; color: #4d3a00; }
  .top.sandbox { background: #fff4d6; border-color: #e0b000; }
  form { margin: 0 0 0.75rem; }
  .notice strong { display: block; }
  button, .button { display: block; width: 100%; min-height: 48px; padding: 0.75rem 1rem; border: 0; border-radius: 8px; font: inherit; font-weight: 700; font-size: 1.0625rem; cursor: pointer; text-align: center; text-decoration: none; }
  .primary { background: #0a47b2; color: #fff; }
  .primary:hover { background: #003d9e; }
  .secondary { background: #fff; color: #0a47b2; border: 1px solid #a4bff2; }
  .actions { display: grid; gap: 0.75rem; margin: 1.25rem 0 1rem; }
  :focus-visible { outline: 3px solid #316bdf; outline-offset: 2px; }
  label { display: block; font-weight: 600; margin: 0 0 0.25rem; }
  .field { margin: 0 0 1rem; }
  .row { display: grid; grid-template-columns: 1fr 1fr; gap: 0.75rem; align-items: end; }
  input[type="text"] { width: 100%; min-height: 48px; padding: 0.625rem 0.75rem; border: 1px solid #8a94a6; border-radius: 8px; font: inherit; font-size: 1rem; color: inherit; background: #fff; }
  input[aria-invalid="true"] { border-color: #b3261e; border-width: 2px; }
  .error { color: #b3261e; font-size: 0.875rem; margin: 0.25rem 0 0; }
  .error-summary { padding: 0.75rem 1rem; margin: 0 0 1.25rem; border: 2px solid #b3261e; border-radius: 8px; }
  .error-summary h2 { margin: 0 0 0.5rem; color: #b3261e; }
  .error-summary ul { margin: 0; padding-inline-start: 1.25rem; }
  .error-summary a { color: #b3261e; font-weight: 600; }
  .hint { color: #495366; font-size: 0.8125rem; margin: 0.25rem 0 0; }
  .ltr { direction: ltr; unicode-bidi: isolate; }
  /* A reference of 27 characters is 314 px in bold 16 px, wider than the 288 px a 320 px screen leaves; in 14 px it fits. */
  .unbroken { white-space: nowrap; font-size: 0.875rem; }
  [dir="rtl"] input.ltr { text-align: right; }
  @media (min-width: 36em) {
    main { margin-block-start: 2.5rem; padding: 2rem; }
    .top { padding-inline: 2rem; }
    dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.5rem 1.5rem; }
    dd { margin: 0; }
    .actions { grid-template-columns: 2fr 1fr; }
    .actions.single { grid-template-columns: 1fr; }
  }
`;

export interface PageShell {
  lang: Language;
  /** The document title, already in `lang`. */
  title: string;
  /** The top bar's inner HTML (trusted markup built by the caller from escaped parts). */
  header: string;
  /** The sandbox gateway's pages wear a different top bar, so nobody takes them for Safar's own. */
  sandbox?: boolean;
  /** The inner HTML of <main> (trusted markup built by the caller from escaped parts). */
  main: string;
  /** Same-origin scripts (src paths), loaded with defer; never inline (CSP script-src 'self'). */
  scripts?: string[];
}

/** A complete page: never indexed, direction from the language, the app's look. */
export function pageShellHtml({ lang, title, header, main, scripts = [], sandbox = false }: PageShell): string {
  return `<!doctype html>
<html lang="${lang}" dir="${lang === 'ar' ? 'rtl' : 'ltr'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="strict-origin-when-cross-origin">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
${scripts.map((src) => `<script src="${escapeHtml(src)}" defer></script>`).join('\n')}
</head>
<body>
<header class="top${sandbox ? ' sandbox' : ''}">${header}</header>
<main>
${main}
</main>
</body>
</html>
`;
}

/** The Safar top bar: the mark and the name in Latin and Arabic script, as in the SPA's header. */
export function safarHeader(): string {
  return `${LOGO_MARK}<span class="name">Safar <span lang="ar">سفر</span></span>`;
}

/** One hidden input per field, names and values escaped: how a signed form travels through the browser. */
export function hiddenInputs(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
}
