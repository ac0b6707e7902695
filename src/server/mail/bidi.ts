/**
 * Unicode LEFT-TO-RIGHT ISOLATE … POP DIRECTIONAL ISOLATE around a run that must read left to
 * right inside Arabic text: an amount, a policy number, a code, a Latin name. Without it the
 * bidi algorithm may move "$" to the far side of the digits ("58$") or flip a hyphen; inside an
 * isolate the run is one unit its neighbours cannot reorder, in plain text and HTML alike, as
 * the SPA writes amounts (src/web/i18n/format.ts, isolateLtr).
 */
export const isolateLtr = (text: string): string => `\u2066${text}\u2069`;
