import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { BIN, ROOT } from '../support/server-process';
import { findServerBinaries, startCluster, type Cluster } from './cluster';
import { NOT_ON_POSTGRES } from './engines';

/**
 * `npm run test:postgres` (the last step of `npm test`): the integration tests and a short soak
 * on a real PostgreSQL server. It finds or installs the server binaries (cluster.ts), starts a
 * throwaway cluster on a free port, runs everything on it, and stops and removes the cluster
 * afterwards, also on failure and Ctrl-C. Without binaries and no way to install them it prints
 * why and exits 0, so `npm test` still passes on a laptop without PostgreSQL.
 */

/**
 * The short soak runs on PostgreSQL (issue 18 item 7): `npm run soak -- <args> --database-url
 * <admin URL>`; the soak creates a database of its own for each run and drops it afterwards.
 * The outage run stops and starts this very cluster, so it is the last one.
 */
function soakRuns(cluster: Cluster): string[][] {
  return [
    ['journeys', '20'],
    ['crash', '--journeys', '20'],
    // Under load: 10 customers paying per disruption (a fast stop, an immediate stop, a restart), 5 s down each time.
    ['outage', '--stop', cluster.commands.stop, '--stop-immediate', cluster.commands.stopImmediate, '--start', cluster.commands.start, '--outage-ms', '5000'],
  ];
}

type Step = { name: string; ms: number; ok: boolean };

let child: ChildProcess | null = null;

function runStep(command: string, args: string[], env: Record<string, string>): Promise<boolean> {
  return new Promise((resolve, reject) => {
    child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', reject);
    child.on('exit', (code) => {
      child = null;
      resolve(code === 0);
    });
  });
}

/**
 * Proof that the tests ran on this server rather than quietly on PGlite: the seeded template
 * test-db.ts builds exists. The test databases left behind (an app a test never closed) are
 * counted for the record; the cluster is removed anyway.
 */
async function testDatabasesCheck(cluster: Cluster): Promise<Step> {
  const client = new pg.Client({ connectionString: cluster.adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ templates: number; undropped: number }>(
      `select count(*) filter (where datname like 'safar\\_template\\_%')::int as templates,
              count(*) filter (where datname like 'safar\\_t\\_%')::int as undropped
         from pg_database`,
    );
    const { templates, undropped } = rows[0]!;
    return { name: `the tests used PostgreSQL (seeded template built: ${templates ? 'yes' : 'NO'}; test databases not dropped: ${undropped})`, ms: 0, ok: templates > 0 };
  } finally {
    await client.end();
  }
}

async function main(): Promise<number> {
  const began = Date.now();
  const binaries = await findServerBinaries();
  if ('missing' in binaries) {
    console.log(`PostgreSQL tests skipped: ${binaries.missing}. Set PG_BIN to a PostgreSQL bin directory, or install PostgreSQL, to run them.`);
    return 0;
  }

  const cluster = await startCluster(binaries.binDir);
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping the throwaway PostgreSQL cluster…`);
    child?.kill(signal);
    void cluster.stop().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const steps: Step[] = [];
  const step = async (name: string, command: string, args: string[], env: Record<string, string> = {}) => {
    const start = Date.now();
    const ok = await runStep(command, args, env);
    steps.push({ name, ms: Date.now() - start, ok });
  };

  try {
    console.log(`PostgreSQL ${path.basename(path.dirname(binaries.binDir))} from ${binaries.binDir}: throwaway cluster on 127.0.0.1:${cluster.port} (${cluster.dir})`);
    const excluded = Object.keys(NOT_ON_POSTGRES).flatMap((file) => ['--exclude', file]);
    // Every core: vitest's default is one fewer (1 worker here), and in `npm test` this run ends
    // last, alone for its last minute or two, with a core idle (123 of 1,693 core-seconds on a
    // fresh clone, issue 35 item 2).
    await step('integration tests', path.join(BIN, 'vitest'), ['run', '--project', 'server', '--project', 'system', 'tests/integration/', '--maxWorkers=100%', ...excluded], {
      SAFAR_TEST_DATABASE_URL: cluster.adminUrl,
    });
    steps.push(await testDatabasesCheck(cluster));

    for (const args of soakRuns(cluster)) {
      await step(`soak ${args[0]}`, path.join(BIN, 'tsx'), ['tests/soak/run.ts', ...args, '--database-url', cluster.adminUrl]);
    }
  } finally {
    if (!stopping) await cluster.stop();
  }

  const failed = steps.filter((entry) => !entry.ok);
  console.log('\nPostgreSQL run:');
  for (const entry of steps) console.log(`  ${entry.ok ? 'passed' : 'FAILED'}  ${entry.name}  ${(entry.ms / 1000).toFixed(1)} s`);
  console.log(`  not on PostgreSQL: ${Object.entries(NOT_ON_POSTGRES).map(([file, why]) => `${file} (${why})`).join('; ')}`);
  console.log(`  total ${((Date.now() - began) / 1000).toFixed(1)} s`);
  return failed.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
