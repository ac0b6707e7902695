import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';
import { ROOT, markBuiltAt, staleness } from './build-staleness';
import { compileInsurerSandboxWorker, INSURER_SANDBOX_WORKER } from './quoting/insurer-sandbox-build';

/**
 * The server as one JavaScript file, `dist-server/main.js`, that `npm start` runs with plain
 * `node` (issue 18 item 3): under tsx the server idled at about 350 MB, because tsx's loader
 * thread about doubles what every module costs in memory (the app's imports: 181 MB under tsx,
 * 100 MB bundled under node). Packages stay outside the bundle and load from node_modules.
 *
 * The broker's command line is in it too, `dist-server/broker-main.js`, which `npm run broker`
 * runs with plain node: a command cost about 2.5 core-seconds under npm and tsx, about 1.6 from
 * the bundle (issue 35 item 2; the rest is mostly opening the embedded database).
 *
 * `npm run build:server` (and `npm start` before it serves, and `npm run broker` before its
 * command) rebuilds only when a source file is newer than the bundle, and says which. Tests and
 * `npm run dev` still run the sources with tsx.
 */

export const SERVER_BUNDLE = path.join(ROOT, 'dist-server', 'main.js');
/**
 * The embedded database's worker thread, compiled beside the bundle (db/pglite-thread.ts uses it
 * while it is not older than its source): compiling it at every start cost the main thread about
 * 200 ms of esbuild (issue 34 item 6).
 */
export const WORKER_BUNDLE = path.join(ROOT, 'dist-server', 'pglite-worker.js');
/** The folder of the bundle's chunks, beside main.js. */
const CHUNKS = 'chunks';
/** What the server is built from: its own sources, the contract it imports, the migrations it reads, the locked packages. */
const SOURCES = ['src/server', 'src/contract', 'package-lock.json'] as const;
const requireFromRoot = createRequire(path.join(ROOT, 'package.json'));

/** Why the bundle must be built again (a sentence), or null when it is current. */
export function bundleStaleness(): string | null {
  return staleness(SERVER_BUNDLE, SOURCES, 'the server bundle');
}

/**
 * Each source module keeps its own `import.meta.url`, so what it finds beside itself (the
 * migrations folder, the PGlite worker, the project root, the broker CLI's "am I the main
 * module" check) is found exactly as when tsx runs the sources.
 */
const ownImportMetaUrl: Plugin = {
  name: 'own-import-meta-url',
  setup(builder) {
    // A package's JSON (i18n-iso-countries' names) goes into the bundle: plain node imports JSON only with an import attribute.
    builder.onResolve({ filter: /\.json$/ }, (args) => (args.path.startsWith('.') ? undefined : { path: requireFromRoot.resolve(args.path) }));
    builder.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
      loader: 'ts',
    }));
  },
};

/** Builds the bundle when it is stale (or always with force); answers why it was built, or null. */
export async function bundleServer(options: { force?: boolean } = {}): Promise<string | null> {
  const reason = options.force ? 'asked to' : bundleStaleness();
  if (!reason) return null;
  const startedAtMs = Date.now();
  // Loaded only to build: a start whose bundle is current need not load esbuild.
  const { build } = await import('esbuild');
  const result = await build({
    // And npm start's check of the builds (start-check.ts), and the broker's command line and its
    // check of the bundle (broker-main.ts, bundle-check.ts), which share this build's chunks.
    entryPoints: ['main', 'start-check', 'broker-main', 'bundle-check'].map((name) => path.join(ROOT, `src/server/${name}.ts`)),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    plugins: [ownImportMetaUrl],
    write: false,
    // What main.ts imports dynamically (the app, once PGlite has begun to start) is a chunk of its
    // own, loaded then; content-named, so an old main.js and a new one never share a chunk file.
    splitting: true,
    outdir: path.dirname(SERVER_BUNDLE),
    entryNames: '[name]',
    chunkNames: `${CHUNKS}/[name]-[hash]`,
    logLevel: 'warning',
  });
  const worker = await build({
    entryPoints: [path.join(ROOT, 'src/server/db/pglite-worker.ts')],
    bundle: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    outfile: WORKER_BUNDLE,
    logLevel: 'warning',
  });
  // And the insurer sandbox's thread (issue 34 item 5), so a start does not compile it.
  const sandboxWorker = await compileInsurerSandboxWorker();
  // Each written beside its name, then renamed, main.js last: a server starting meanwhile reads the
  // old build or the new one, never half of one.
  const chunksDir = path.join(path.dirname(SERVER_BUNDLE), CHUNKS);
  mkdirSync(chunksDir, { recursive: true });
  const chunks = result.outputFiles.filter((file) => path.dirname(file.path) === chunksDir);
  const others = result.outputFiles.filter((file) => path.dirname(file.path) !== chunksDir && file.path !== SERVER_BUNDLE);
  const entry = result.outputFiles.find((file) => file.path === SERVER_BUNDLE)!;
  for (const { path: file, contents } of [...chunks, ...others, { path: WORKER_BUNDLE, contents: worker.outputFiles[0]!.contents }, { path: INSURER_SANDBOX_WORKER, contents: sandboxWorker }, entry]) {
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, contents);
    renameSync(partial, file);
    markBuiltAt(file, startedAtMs);
  }
  // Chunks of earlier builds: a server loads its chunk as it starts, so only a start racing this build could still want one.
  const current = new Set(chunks.map((file) => path.basename(file.path)));
  for (const name of readdirSync(chunksDir)) if (!current.has(name)) rmSync(path.join(chunksDir, name), { force: true });
  return reason;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  bundleServer({ force: process.argv.includes('--force') })
    .then((reason) => console.log(reason ? `Built ${path.relative(ROOT, SERVER_BUNDLE)} (${reason}).` : `${path.relative(ROOT, SERVER_BUNDLE)} is current.`))
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}
