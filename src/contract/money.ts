/**
 * Integer US cents written as dollars and cents, "1,234.57" (RULINGS 26): the one spelling of an
 * exact amount, shared by the SPA (formatMoney with `cents`) and the server's pages, mail and
 * certificate, so every place writes the same figure. Integer arithmetic throughout: no
 * floating-point division, so 4 296 is always "42.96". The sign is the caller's to write.
 */
export function dollarsAndCents(cents: number): string {
  const whole = Math.abs(Math.round(cents));
  return `${groupThousands(Math.floor(whole / 100))}.${String(whole % 100).padStart(2, '0')}`;
}

/**
 * A whole number with thousands separators, as Intl.NumberFormat('en-US') writes it: 1234567 ->
 * "1,234,567". Written out, not made with Intl: a page's first Intl object loads the platform's
 * locale data, 20–90 ms on a phone, in the render that shows the first price (issue 19).
 */
export function groupThousands(value: number): string {
  return `${value < 0 ? '-' : ''}${String(Math.abs(value)).replace(/\B(?=(\d{3})+$)/g, ',')}`;
}
