import { textTable } from '../../src/server/text-table';
import type { StepTimes } from './soak-http';

/**
 * The soak's report: one row per figure, its value beside its goal, and whether the goal is met
 * (null: a figure shown for information, without a goal). Any missed goal makes the command exit 1.
 */

export interface Figure {
  figure: string;
  value: string;
  goal: string;
  ok: boolean | null;
}

export interface StepFigure {
  step: string;
  count: number;
  p50: number;
  p99: number;
  max: number;
}

export interface SoakSummary {
  command: string;
  date: string;
  database: string;
  instances: number;
  figures: Figure[];
  steps: StepFigure[];
  /** Distinct journey errors with how often each happened (at most 20 kinds). */
  errors: { error: string; count: number }[];
  ok: boolean;
}

export const info = (figure: string, value: string | number): Figure => ({ figure, value: String(value), goal: '—', ok: null });

export function goal(figure: string, value: string | number, goalText: string, ok: boolean): Figure {
  return { figure, value: String(value), goal: goalText, ok };
}

/** A count that must be `expected` (a query that failed is a missed goal, its text the value). */
export function equals(figure: string, value: number | string, expected: number, goalText = String(expected)): Figure {
  return goal(figure, value, goalText, value === expected);
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function stepFigures(times: StepTimes, order: readonly string[]): StepFigure[] {
  const names = [...order.filter((name) => times.byStep.has(name)), ...[...times.byStep.keys()].filter((name) => !order.includes(name))];
  return names.map((step) => {
    const sorted = [...times.byStep.get(step)!].sort((a, b) => a - b);
    return { step, count: sorted.length, p50: Math.round(percentile(sorted, 50)), p99: Math.round(percentile(sorted, 99)), max: Math.round(sorted.at(-1) ?? 0) };
  });
}

/** Counts distinct error texts, most frequent first. */
export function errorKinds(errors: readonly string[]): { error: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const error of errors) counts.set(error, (counts.get(error) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20).map(([error, count]) => ({ error, count }));
}

export function printSummary(summary: SoakSummary, json: boolean) {
  if (json) {
    console.log(JSON.stringify(summary, null, 2));
    return;
  }
  console.log(`\nsoak ${summary.command}, ${summary.date}, ${summary.database}${summary.instances > 1 ? `, ${summary.instances} instances` : ''}\n`);
  console.log(textTable(['figure', 'value', 'goal', 'ok'], summary.figures.map((row) => [row.figure, row.value, row.goal, row.ok === null ? '' : row.ok ? 'yes' : 'NO'])));
  if (summary.steps.length > 0) {
    console.log('');
    console.log(textTable(['step', 'requests', 'p50 ms', 'p99 ms', 'max ms'], summary.steps.map((row) => [row.step, String(row.count), String(row.p50), String(row.p99), String(row.max)])));
  }
  if (summary.errors.length > 0) {
    console.log('\nerrors:');
    for (const { error, count } of summary.errors) console.log(`  ${String(count).padStart(4)} × ${error}`);
  }
  console.log(`\n${summary.ok ? 'every goal met' : 'GOALS MISSED: exit code 1'}`);
}
