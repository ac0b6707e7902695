/**
 * The bench's output: each figure of issue 19's table beside its budget with PASS or FAIL, as
 * it is measured, then all of them again in one table at the end. Figures, not a test: the
 * bench always exits 0, and a FAIL is something to look at, not a broken build.
 */

export interface Figure {
  name: string;
  /** The measured value as shown, e.g. "183.2 KB" or "1,240 ms". */
  value: string;
  /** The budget as written in the issue, e.g. "≤ 160 KB"; null for a figure without one. */
  budget: string | null;
  /** Whether the value meets the budget; null without a budget. */
  pass: boolean | null;
  /** What lies behind the figure (files, p99, samples), printed under it. */
  detail?: string;
}

const recorded: Figure[] = [];

const mark = (pass: boolean | null) => (pass === null ? '    ' : pass ? 'PASS' : 'FAIL');

function line(figure: Figure): string {
  return `${mark(figure.pass)}  ${figure.name.padEnd(68)} ${figure.value.padStart(16)}   ${figure.budget ?? ''}`;
}

/** Prints a figure now and keeps it for the summary. */
export function report(figure: Figure): void {
  recorded.push(figure);
  console.log(line(figure));
  if (figure.detail) console.log(`      ${figure.detail}`);
}

/** A figure against an upper bound (sizes, times). */
export function atMost(name: string, measured: number, limit: number, format: (n: number) => string, detail?: string): void {
  report({ name, value: format(measured), budget: `≤ ${format(limit)}`, pass: measured <= limit, detail });
}

/** A figure against a lower bound (scores, rates). */
export function atLeast(name: string, measured: number, limit: number, format: (n: number) => string, detail?: string): void {
  report({ name, value: format(measured), budget: `≥ ${format(limit)}`, pass: measured >= limit, detail });
}

/** A figure without a budget (the yardstick, the new-data start, memory). */
export function plain(name: string, value: string, detail?: string): void {
  report({ name, value, budget: null, pass: null, detail });
}

/** A section whose measurement broke: the error is shown as a failed figure and the bench goes on. */
export function broken(name: string, error: unknown): void {
  report({ name, value: 'not measured', budget: null, pass: false, detail: error instanceof Error ? (error.stack ?? error.message) : String(error) });
}

/** Prints a heading for the next section. */
export function section(title: string): void {
  console.log(`\n== ${title}`);
}

/** The whole table again, and how many budgets passed. */
export function printSummary(): void {
  section('summary');
  for (const figure of recorded) console.log(line(figure));
  const budgets = recorded.filter((figure) => figure.pass !== null);
  console.log(`\n${budgets.filter((figure) => figure.pass).length} of ${budgets.length} budgets met.`);
}

export const ms = (n: number) => `${Math.round(n).toLocaleString('en')} ms`;
export const seconds = (n: number) => `${(n / 1000).toFixed(2)} s`;
export const percent = (n: number) => `${Math.round(n * 100)} %`;
export const score = (n: number) => n.toFixed(2);
export const perSecond = (n: number) => `${Math.round(n).toLocaleString('en')} req/s`;
export const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** The median of a non-empty list. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
