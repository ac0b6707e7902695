import { spawn, type SpawnOptions } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../support/server-process';

/** Where Debian and Ubuntu put the server binaries of each installed major version. */
const DEBIAN_POSTGRES_ROOT = '/usr/lib/postgresql';
/** Prefix of the cluster directories, so a later run can find clusters an earlier, killed run left. */
const CLUSTER_PREFIX = 'safar-pg-';
/** initdb and the server refuse to run as root; this is the account Debian's package creates. */
const SERVER_ACCOUNT = 'postgres';

export interface Cluster {
  /** Superuser URL over TCP on 127.0.0.1, database `postgres`. */
  adminUrl: string;
  port: number;
  dir: string;
  /**
   * Shell commands that stop this server (fast: 57P01 to every session; immediate: no shutdown
   * checkpoint, crash recovery at the next start) and start it again, for `npm run soak -- outage`.
   */
  commands: { stop: string; stopImmediate: string; start: string };
  /** Stops the server (fast shutdown, immediate if that hangs) and removes its directory. */
  stop(): Promise<void>;
}

function run(command: string, args: string[], options: SpawnOptions & { quiet?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      // The postgres account may not be allowed into the caller's working directory.
      cwd: '/',
      ...options,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive', ...options.env },
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!options.quiet) process.stdout.write(chunk);
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!options.quiet) process.stderr.write(chunk);
    });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit code ${code}`}):\n${output}`)),
    );
  });
}

/** The highest installed major version's bin directory that has initdb, pg_ctl and postgres. */
function debianBinDir(): string | null {
  if (!existsSync(DEBIAN_POSTGRES_ROOT)) return null;
  const versions = readdirSync(DEBIAN_POSTGRES_ROOT)
    .filter((name) => /^\d+(\.\d+)?$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const dir = path.join(DEBIAN_POSTGRES_ROOT, version, 'bin');
    if (hasServerBinaries(dir)) return dir;
  }
  return null;
}

function hasServerBinaries(dir: string): boolean {
  return ['initdb', 'pg_ctl', 'postgres'].every((name) => existsSync(path.join(dir, name)));
}

export type ServerBinaries = { binDir: string } | { missing: string };

/**
 * PostgreSQL's server binaries: PG_BIN when set (an Error when it has none), else the newest
 * /usr/lib/postgresql/<major>/bin.
 * On Debian as root with none, Debian's `postgresql` package is installed (about 30 s), the way
 * the end-to-end tests install Chromium. Otherwise `missing` says why there are none.
 */
export async function findServerBinaries(): Promise<ServerBinaries> {
  const fromEnv = process.env.PG_BIN;
  if (fromEnv) {
    if (hasServerBinaries(fromEnv)) return { binDir: fromEnv };
    throw new Error(`PG_BIN is set to ${fromEnv}, which has no initdb, pg_ctl and postgres: point it at a PostgreSQL bin directory, or unset it.`);
  }
  const installed = debianBinDir();
  if (installed) return { binDir: installed };

  const isRoot = process.getuid?.() === 0;
  const isDebian = existsSync('/etc/debian_version');
  if (!isRoot || !isDebian) return { missing: 'no server binaries and cannot install (not root / not Debian)' };

  console.log("PostgreSQL not found: installing Debian's postgresql package (about 30 s)…");
  await run('apt-get', ['update'], { quiet: true });
  // The package creates and may start its own cluster on 5432; it is left alone: the tests start
  // their own throwaway cluster on a free port and never connect to it.
  await run('apt-get', ['install', '-y', '--no-install-recommends', 'postgresql'], { quiet: true });
  const after = debianBinDir();
  if (!after) throw new Error(`apt-get install postgresql finished but ${DEBIAN_POSTGRES_ROOT}/<major>/bin has no server binaries.`);
  return { binDir: after };
}

/** How to run a server binary: as ourselves, or as the postgres account when we are root. */
function asServerUser(binDir: string, program: string, args: string[]): [string, string[]] {
  const binary = path.join(binDir, program);
  if (process.getuid?.() !== 0) return [binary, args];
  return ['runuser', ['-u', SERVER_ACCOUNT, '--', binary, ...args]];
}

/**
 * The same command as one /bin/sh line, every argument single-quoted. It starts in / because the
 * postgres account may not be allowed into the caller's working directory.
 */
function shellLine(command: string, args: string[]): string {
  return `cd / && ${[command, ...args].map((part) => `'${part.replaceAll("'", "'\\''")}'`).join(' ')}`;
}

/**
 * Where the cluster directories go: the temp folder, or /tmp when we are root and the postgres
 * account could not reach into the temp folder (a TMPDIR under /root).
 */
function clustersParent(): string {
  const base = tmpdir();
  if (process.getuid?.() !== 0) return base;
  for (let dir = base; ; dir = path.dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return '/tmp';
    if (dir === path.dirname(dir)) return base;
  }
}

function serverAccountIds(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${SERVER_ACCOUNT}:`));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (!uid || !gid) throw new Error(`Running as root needs the "${SERVER_ACCOUNT}" account to run PostgreSQL (initdb refuses root); it does not exist.`);
  return { uid: Number(uid), gid: Number(gid) };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Stops and removes clusters whose runner died without cleaning up (SIGKILL, a closed terminal),
 * so they do not pile up in the temp folder holding ports and memory.
 */
async function removeAbandonedClusters(binDir: string): Promise<void> {
  for (const name of readdirSync(clustersParent()).filter((entry) => entry.startsWith(CLUSTER_PREFIX))) {
    const dir = path.join(clustersParent(), name);
    const pidFile = path.join(dir, 'runner.pid');
    // No pid file yet: another run is creating this cluster right now.
    if (!existsSync(pidFile)) continue;
    const owner = Number(readFileSync(pidFile, 'utf8').trim());
    if (!owner || isAlive(owner)) continue;
    if (existsSync(path.join(dir, 'data', 'postmaster.pid'))) {
      const [command, args] = asServerUser(binDir, 'pg_ctl', ['stop', '-D', path.join(dir, 'data'), '-m', 'immediate', '-s']);
      await run(command, args, { quiet: true }).catch(() => {});
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Creates a throwaway cluster in the temp folder and starts it on a free port, listening on
 * 127.0.0.1 only, its socket inside its own directory, trust authentication (nothing else can
 * reach it). Durability settings are off: the tests crash the app, never the database.
 */
export async function startCluster(binDir: string): Promise<Cluster> {
  await removeAbandonedClusters(binDir);
  const dir = mkdtempSync(path.join(clustersParent(), CLUSTER_PREFIX));
  writeFileSync(path.join(dir, 'runner.pid'), String(process.pid));
  const dataDir = path.join(dir, 'data');
  const socketDir = path.join(dir, 'socket');
  mkdirSync(socketDir);
  if (process.getuid?.() === 0) {
    const { uid, gid } = serverAccountIds();
    chownSync(dir, uid, gid);
    chownSync(socketDir, uid, gid);
  }
  const logFile = path.join(dir, 'server.log');
  let started = false;
  const stop = async () => {
    if (started) {
      const stopWith = (mode: string) => {
        const [command, args] = asServerUser(binDir, 'pg_ctl', ['stop', '-D', dataDir, '-m', mode, '-w', '-t', '20', '-s']);
        return run(command, args, { quiet: true });
      };
      await stopWith('fast').catch(() => stopWith('immediate').catch(() => {}));
      started = false;
    }
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    const [initdb, initArgs] = asServerUser(binDir, 'initdb', [
      '-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync',
    ]);
    await run(initdb, initArgs, { quiet: true });

    const port = await freePort();
    const settings = [
      `-p ${port}`,
      `-k ${socketDir}`,
      '-c listen_addresses=127.0.0.1',
      // Test files run in parallel, each with a 10-connection pool per database it opens.
      '-c max_connections=300',
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
    ].join(' ');
    const [pgCtl, startArgs] = asServerUser(binDir, 'pg_ctl', ['start', '-D', dataDir, '-l', logFile, '-w', '-t', '60', '-s', '-o', settings]);
    started = true;
    await run(pgCtl, startArgs, { quiet: true }).catch((error: unknown) => {
      const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
      throw new Error(`${(error as Error).message}\n${log}`);
    });
    const commands = {
      stop: shellLine(...asServerUser(binDir, 'pg_ctl', ['stop', '-D', dataDir, '-m', 'fast', '-w', '-s'])),
      stopImmediate: shellLine(...asServerUser(binDir, 'pg_ctl', ['stop', '-D', dataDir, '-m', 'immediate', '-w', '-s'])),
      start: shellLine(pgCtl, startArgs),
    };
    return { adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`, port, dir, commands, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
