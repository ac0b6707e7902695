import { databaseLabel, type SoakOptions } from './journeys';
import { equals, info, type Figure, type SoakSummary } from './soak-figures';
import { prepareTarget, serverRssMb, startInstance, type Instance } from './soak-servers';

/**
 * `npm run soak -- fuzz [N]`: a real server on a fresh database (PGlite, or PostgreSQL with
 * --database-url), then tests/soak/fuzz.ts's runFuzz against it over HTTP, each body from an
 * address of its own (the server trusts X-Forwarded-For here) so rate limits do not turn the
 * run into 429s. fuzz.ts is loaded only for this command, so the other commands run whatever
 * state it is in.
 */
export async function runFuzzCommand(args: { perEndpoint: number; seed: number | null; options: SoakOptions }): Promise<SoakSummary> {
  let fuzz: typeof import('./fuzz');
  try {
    fuzz = await import('./fuzz');
  } catch (error) {
    console.error(`soak fuzz: tests/soak/fuzz.ts could not be loaded (${error instanceof Error ? error.message.split('\n')[0] : String(error)}).`);
    process.exit(2);
  }
  const started = Date.now();
  const target = await prepareTarget({ databaseUrl: args.options.databaseUrl, instances: 1, keep: args.options.keep }, []);
  let instance: Instance | null = null;
  try {
    instance = (await startInstance(target, 0)).instance;
    const summary = await fuzz.runFuzz({
      baseUrl: instance.base,
      perEndpoint: args.perEndpoint,
      ...(args.seed === null ? {} : { seed: args.seed }),
      spreadAddresses: true,
      log: args.options.json ? () => {} : (line) => console.log(line),
    });
    const rss = serverRssMb(instance);
    if (!args.options.json) console.log(`\n${fuzz.fuzzTable(summary)}`);
    const sent = summary.endpoints.reduce((sum, row) => sum + row.sent, 0);
    const fiveXx = summary.endpoints.reduce((sum, row) => sum + row.fiveXx, 0);
    const figures: Figure[] = [
      info('seed (replay with --seed)', summary.seed),
      info('bodies sent', `${sent} over ${summary.endpoints.length} endpoints in ${(summary.ms / 1000).toFixed(1)} s`),
      equals('answers 5xx', fiveXx, 0),
      equals('failing bodies (5xx, outside the envelope or the contract)', summary.failures.length, 0),
      info('server RSS after the fuzz', `${rss} MB`),
    ];
    return {
      command: `fuzz ${args.perEndpoint}`,
      date: new Date(started).toISOString(),
      database: databaseLabel(args.options),
      instances: 1,
      figures,
      steps: [],
      errors: summary.failures.map((failure) => ({ error: `${failure.path}: ${failure.reason} (status ${failure.status}, body ${failure.body.slice(0, 200)})`, count: 1 })),
      ok: figures.every((figure) => figure.ok !== false),
    };
  } finally {
    await instance?.server.stop().catch(() => undefined);
    await target.cleanup();
  }
}
