import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { lingui } from '@lingui/vite-plugin';
import { mantinePostcss } from './src/web/theme/postcss-config.ts';
import { prerenderShell } from './src/web/prerender/prerender-shell.plugin.ts';
import { precompressPlugin } from './src/web/prerender/precompress.plugin.ts';
import { pruneMantineCssPlugin } from './src/web/prerender/prune-mantine-css.plugin.ts';
import { dependencyPatchesPlugin } from './src/web/prerender/dependency-patches.plugin.ts';
import { mantineThemeCssPlugin } from './src/web/prerender/mantine-theme-css.plugin.ts';
import { WAIT_GUARD_MS } from './tests/support/wait-guard.ts';
import { SYSTEM_TEST_FILES } from './tests/support/system-tests.ts';

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '8080'}`;
const apiPrefixes = ['/miscellaneous', '/health', '/api', '/pay', '/payments', '/sandbox', '/policies'];

export default defineConfig({
  root: '.',
  publicDir: 'src/web/public',
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 700,
    // No <link rel=modulepreload> per chunk a lazy import needs: under a phone's CPU, inserting
    // thirty of them for the travel details form held its first render 15 ms and more (issue
    // 19). The browser fetches a chunk's imports itself; the first load's chunks are asked for by
    // the built page (prerender-shell.plugin.ts firstLoadChunks), lazy screens ahead of time.
    modulePreload: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // React in a chunk of its own: the page runs it as a module script of its own, so the
            // first load is not evaluated in one long task (load-after-paint.ts), and a release
            // that changes only the app's code leaves it cached.
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 20 },
            // Everything else the entry imports statically, in the entry's chunk. Left to itself,
            // rolldown cut the modules the entry shares with lazy screens (xstate, the journey
            // machine, Mantine's parts) into a dozen small common chunks once the policy page
            // existed, and the first load grew from 141.5 to 146.8 KB gzip: small files compress
            // worse and each costs a request. With this group it is 139.4 KB in 3 files.
            { name: 'index', tags: ['$initial'], priority: 10 },
          ],
        },
      },
    },
  },
  plugins: [dependencyPatchesPlugin(), mantineThemeCssPlugin(), react({ babel: { plugins: ['@lingui/babel-plugin-lingui-macro'] } }), lingui(), pruneMantineCssPlugin(), prerenderShell(), precompressPlugin()],
  css: { postcss: mantinePostcss() },

  server: {
    port: 5173,
    // A key starting with ^ is a RegExp to Vite: '/pay' alone would also catch the SPA's /payment-result.
    proxy: Object.fromEntries(apiPrefixes.map((prefix) => [`^${prefix}(/|$)`, { target: apiTarget, changeOrigin: false }])),
  },
  test: {
    // With SAFAR_SUMMARY_DIR set (npm test does), failures and file durations are also written there.
    reporters: process.env.SAFAR_SUMMARY_DIR ? ['default', './tests/support/suite-summary-reporter.ts'] : ['default'],
    // expect.poll waits on state; this is its hang guard, not a wait (vitest's default is 1 s).
    expect: { poll: { timeout: WAIT_GUARD_MS } },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'happy-dom',
          include: ['src/web/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/support/dom-setup.ts'],
          // Hang guards, not waits: a screen test waits on state and ends as soon as it is shown.
          // Vitest's 5 s and 10 s defaults were reached by screen tests that rendered the whole
          // app while \`npm test\` ran its other suites beside them on 2 cores. Each test's own
          // waits fail after WAIT_GUARD_MS (tests/support/wait-guard.ts), well inside these.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // A worker keeps its process for its next file (issue 35): React, Mantine, happy-dom and
          // Testing Library stay loaded, and the setup file clears the app's own modules before
          // each file (tests/support/dom-setup.ts), so a file's mocks reach every module it
          // loads. 231 core-seconds for the project isolated, 148 to 166 shared (shuffled, two seeds).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // The machines and the contract are pure: no DOM, so no DOM to set up for each file
          // (about 3 s a file on this machine when busy).
          name: 'logic',
          environment: 'node',
          include: ['machines/**/*.test.ts', 'src/contract/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          setupFiles: ['tests/support/server-setup.ts'],
          // One module cache per worker, not per file: each file re-imported the server's modules
          // and restored its own test databases, and the project used 569 core-seconds against 219
          // with the cache and the databases shared (issue 35 item 2, both under a CPU hog). Every file builds its own app and database, so none leans on what an
          // earlier file left. A file that mocks a module (vi.mock) needs a cache of its own and
          // belongs to the system project (tests/structure/system-tests.test.ts checks it).
          isolate: false,
          // The system tests are left out by negated patterns, not `exclude`: a project's own
          // `exclude` would replace the one given on the command line (test:postgres gives one).
          include: ['src/server/**/*.test.ts', 'tests/integration/**/*.test.ts', 'tests/structure/**/*.test.ts', ...SYSTEM_TEST_FILES.map((file) => `!${file}`)],
          testTimeout: 120_000,
          hookTimeout: 240_000,
        },
      },
      {
        extends: true,
        test: {
          // Server processes, data directories on disk, worker threads, the SPA build
          // (tests/support/system-tests.ts); `npm run test:quick` leaves them out.
          name: 'system',
          environment: 'node',
          setupFiles: ['tests/support/system-setup.ts'],
          include: [...SYSTEM_TEST_FILES],
          // Hang guards: a server process took 20 to 30 s to start with the other suites running
          // beside it. A test that needs more says so itself.
          testTimeout: 120_000,
          hookTimeout: 240_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'model',
          environment: 'happy-dom',
          include: ['tests/model/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/support/dom-setup.ts'],
          // Hang guards: a path is many steps, each waiting on state.
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // As the unit project: React, Mantine and happy-dom stay loaded from file to file, and the
          // setup file clears the app's own modules before each file.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          // The CPU of each test, for npm test's summary (only when tests/run-suites.ts asks for it).
          setupFiles: ['tests/e2e/cpu-per-test.ts'],
          // Hang guards: the keyboard purchase is a whole journey and took 75 to 80 s with the
          // machine busy; 90 s was reached by it once.
          testTimeout: 300_000,
          hookTimeout: 240_000,
          // npm test runs this project as a suite of its own, beside the main run from the start
          // (tests/run-suites.ts). One file at a time. Side by side (each test makes its own leads and finds its own
          // e-mail by content, so they can) a fresh clone's npm test took longer, 2,603 s against
          // 2,466 s, because the cores were already full: the model and PostgreSQL suites beside
          // it slowed down as much as the Chromium files sped up, and a test failed under that load.
          fileParallelism: false,
          // One worker process for every file, which keeps its modules and its one Chromium
          // (tests/support/chromium.ts chromiumOfThisProcess) from file to file; each file still
          // opens its own contexts, and its own server where it needs one.
          isolate: false,
        },
      },
    ],
  },
});
