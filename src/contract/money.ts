/**
 * Integer US cents written as dollars and cents, "1,234.57" (RULINGS 26): the one spelling of an
 * exact amount, shared by the SPA (formatMoney with `cents`) and the server's pages, mail and
 * certificate, so every place writes the same figure. Integer arithmetic throughout: no
 * floating-point division, so 4 296 is always "42.96". The sign is the caller's to write.
 */
export function dollarsAndCents(cents: number): string {
  const whole = Math.abs(Math.round(cents));
  const dollars = String(Math.floor(whole / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${dollars}.${String(whole % 100).padStart(2, '0')}`;
}
