/**
 * Calendar dates as "YYYY-MM-DD" strings, computed in UTC so that a date never shifts with the
 * time zone of the browser or the server. Pure functions, shared by client and server.
 */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The UTC time of a valid "YYYY-MM-DD", or null for anything else (2026-02-30 included). */
export function parseIsoDate(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const match = ISO_DATE.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const time = Date.UTC(year, month - 1, day);
  const date = new Date(time);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? time : null;
}

export function toIsoDate(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/** Today's date in UTC; `now` is injectable so tests can fix the clock. */
export function todayIso(now: number = Date.now()): string {
  return toIsoDate(now);
}

export function addDays(iso: string, days: number): string {
  return toIsoDate(parseIsoDate(iso)! + days * 86_400_000);
}

/** Adds calendar months, clamping to the month's last day (31 Jan + 1 month = 28/29 Feb). */
export function addMonths(iso: string, months: number): string {
  const date = new Date(parseIsoDate(iso)!);
  const target = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return toIsoDate(target.getTime());
}

export const addYears = (iso: string, years: number) => addMonths(iso, years * 12);

/** Days from start to end, both included: a trip from the 1st to the 3rd is 3 days. */
export function tripDays(start: string, end: string): number {
  return Math.round((parseIsoDate(end)! - parseIsoDate(start)!) / 86_400_000) + 1;
}

/** Age in completed years on a given day. */
export function ageOn(dob: string, on: string): number {
  const [by, bm, bd] = dob.split('-').map(Number) as [number, number, number];
  const [y, m, d] = on.split('-').map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

/** An annual multi-trip policy runs 12 months less one day (spec §9). */
export const annualEndDate = (start: string) => addDays(addMonths(start, 12), -1);
