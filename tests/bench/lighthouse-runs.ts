import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { findChromium } from '../support/chromium';
import { atLeast, atMost, broken, median, ms, plain, score } from './figures';
import { leadAtCheckout, leadWithQuotes, type BenchLead, type BenchServer } from './bench-server';
import { startReferencePage } from './reference-page';

/**
 * Issue 19's Lighthouse figures: its default mobile profile (simulated slow 4G and a 4× slower
 * CPU) with Debian's Chromium, performance and accessibility, on the first page and on the quote
 * list and checkout of a real lead, in English and Arabic; the median of `runs` runs each.
 *
 * Lighthouse slows the host's own CPU by 4×, so a slow host shows what a slow phone feels and a
 * fast one hides it (issue 38 item 5). Each run prints Lighthouse's `benchmarkIndex` (its measure
 * of this host's speed), and the same run measures a reference page first (a bare React + Mantine
 * form the bench builds: reference-page.ts): each page's blocking time is also printed as a ratio
 * to that page's main-thread time, which reads the same on any host.
 */

type Lang = 'en' | 'ar';

interface Page {
  name: string;
  path: string;
  /** The query that opens the page cold for a lead: the SPA stores uuid and sid from it (src/web/journey/startup-query.ts). */
  lead: 'none' | 'quotes' | 'checkout';
  /** Layout shift has a budget where content arrives after the first paint (the quotes, the order summary). */
  clsBudget: boolean;
}

const PAGES: Page[] = [
  { name: '/traveller-details', path: '/traveller-details', lead: 'none', clsBudget: false },
  { name: '/compare-quotes for a real lead', path: '/compare-quotes', lead: 'quotes', clsBudget: true },
  { name: '/checkout for a real lead', path: '/checkout', lead: 'checkout', clsBudget: true },
];

interface Run {
  performance: number;
  accessibility: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  /** All main-thread work (Lighthouse's mainthread-work-breakdown), in simulated milliseconds. */
  mainThread: number;
  /** Lighthouse's measure of this host's CPU speed at the time of the run (higher is faster). */
  benchmarkIndex: number;
  /** Where the page ended: a lead the SPA could not restore ends on /traveller-details. */
  finalPath: string;
  /** Console errors: a page whose scripts failed can score well while showing nothing but its pre-rendered outline. */
  consoleErrors: string[];
  /** The accessibility audits that failed, by id. */
  accessibilityFailures: string[];
}

function entryQuery(lang: Lang, lead: BenchLead | null): string {
  const query = new URLSearchParams({ lang });
  if (lead) query.set('uuid', lead.uuid);
  if (lead?.sessionId) query.set('sid', lead.sessionId);
  return `?${query.toString()}`;
}

async function runOnce(url: string, port: number, attempt = 1): Promise<Run> {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) {
    // Its trace sometimes misses the navigation (NO_NAVSTART) on a busy machine; it says to run again.
    if (attempt < 3) return runOnce(url, port, attempt + 1);
    throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  }
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    performance: lhr.categories.performance?.score ?? 0,
    accessibility: lhr.categories.accessibility?.score ?? 0,
    fcp: audit('first-contentful-paint'),
    lcp: audit('largest-contentful-paint'),
    tbt: audit('total-blocking-time'),
    cls: audit('cumulative-layout-shift'),
    mainThread: audit('mainthread-work-breakdown'),
    benchmarkIndex: lhr.environment.benchmarkIndex,
    finalPath: new URL(lhr.finalDisplayedUrl).pathname,
    accessibilityFailures: (lhr.categories.accessibility?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => ref.id),
    consoleErrors: ((lhr.audits['errors-in-console']?.details as { items?: { description?: string }[] } | undefined)?.items ?? []).map((item) => item.description ?? '?'),
  };
}

type Measured = Exclude<keyof Run, 'finalPath' | 'consoleErrors' | 'accessibilityFailures'>;

const runLine = (run: Run) => `performance ${score(run.performance)}, TBT ${ms(run.tbt)}, main thread ${ms(run.mainThread)}, benchmarkIndex ${Math.round(run.benchmarkIndex)}`;

/**
 * The reference page's median main-thread time, printed with the host's benchmarkIndex; NaN when
 * it could not be measured (the ratios then say so, the budgets are still reported).
 */
async function measureReference(port: number, runs: number): Promise<number> {
  const reference = await startReferencePage();
  try {
    const results: Run[] = [];
    for (let run = 0; run < runs; run++) {
      results.push(await runOnce(reference.url, port));
      console.log(`      reference run ${run + 1} of ${runs}: ${runLine(results.at(-1)!)}`);
    }
    const mainThread = median(results.map((result) => result.mainThread));
    plain(
      'reference page (bare React + Mantine form): main-thread time',
      ms(mainThread),
      `TBT ${ms(median(results.map((result) => result.tbt)))}, benchmarkIndex ${Math.round(median(results.map((result) => result.benchmarkIndex)))} (median of ${runs})`,
    );
    return mainThread;
  } catch (error) {
    broken('reference page (bare React + Mantine form)', error);
    return Number.NaN;
  } finally {
    await reference.close();
  }
}

/** Runs Lighthouse on every page in both languages and reports the medians against the budgets. */
export async function measureLighthouse(server: BenchServer, runs: number): Promise<void> {
  const chrome = await chromeLauncher.launch({ chromePath: await findChromium('browser'), chromeFlags: ['--headless=new', '--no-sandbox'] });
  try {
    const referenceMainThread = await measureReference(chrome.port, runs);
    const total = PAGES.length * 2 * runs;
    let done = 0;
    for (const page of PAGES) {
      for (const lang of ['en', 'ar'] as const) {
        const label = `Lighthouse ${page.name} (${lang})`;
        try {
          // A lead of its own per page and language: each run opens it cold, as a customer's link would.
          const lead = page.lead === 'quotes' ? await leadWithQuotes(server.send) : page.lead === 'checkout' ? await leadAtCheckout(server.send) : null;
          const url = `${server.base}${page.path}${entryQuery(lang, lead)}`;
          const results: Run[] = [];
          for (let run = 0; run < runs; run++) {
            const started = performance.now();
            results.push(await runOnce(url, chrome.port));
            done += 1;
            console.log(`      run ${done} of ${total}: ${page.path} ${lang} ${runLine(results.at(-1)!)} in ${ms(performance.now() - started)}`);
          }
          const of = (key: Measured) => median(results.map((result) => result[key]));
          const ended = results.map((result) => result.finalPath).filter((path) => path !== page.path);
          const errors = results.flatMap((result) => result.consoleErrors);
          const detail =
            `FCP ${ms(of('fcp'))}, LCP ${ms(of('lcp'))}, TBT ${ms(of('tbt'))}, CLS ${of('cls').toFixed(3)} (median of ${runs})` +
            (ended.length ? `; WARNING: ${ended.length} run(s) ended on ${ended[0]}, not ${page.path}` : '') +
            (errors.length ? `; WARNING: console errors: ${errors.slice(0, 3).join(' | ').slice(0, 400)}` : '');
          atLeast(`${label}: performance`, of('performance'), 0.98, score, detail);
          atMost(`${label}: blocking time (TBT)`, of('tbt'), 200, ms, `benchmarkIndex ${Math.round(of('benchmarkIndex'))}`);
          plain(
            `${label}: TBT / the reference page's main-thread time`,
            Number.isNaN(referenceMainThread) ? 'not measured' : (of('tbt') / referenceMainThread).toFixed(2),
            `main thread ${ms(of('mainThread'))}, ${Number.isNaN(referenceMainThread) ? '' : `${(of('mainThread') / referenceMainThread).toFixed(2)}× the reference's`}`,
          );
          const failedAudits = [...new Set(results.flatMap((result) => result.accessibilityFailures))];
          atLeast(`${label}: accessibility`, of('accessibility'), 1, score, failedAudits.length ? `failed audits: ${failedAudits.join(', ')}` : undefined);
          if (page.clsBudget) atMost(`${label}: layout shift (CLS)`, of('cls'), 0.05, (n) => n.toFixed(3));
        } catch (error) {
          broken(label, error);
        }
      }
    }
  } finally {
    chrome.kill();
  }
}
