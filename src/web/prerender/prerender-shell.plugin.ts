import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Beasties from 'beasties';
import { build, type Plugin, type Rolldown } from 'vite';
import { STEP_IDS } from '../../../machines/journey.routes.ts';
import { PAGES_TABLE } from '../../contract/built-pages.ts';
import { builtPageFile, pagesTable } from './built-pages.ts';
import { loadAfterFirstPaint } from './load-after-paint.ts';
import { chooseShell } from './shell-choice.ts';

const SHELL_MARK = '<!--app-shell-->';
const CHOOSER_MARK = '<!--choose-shell-->';

/**
 * After the app's build (issue 19): renders every step's screen in English and Arabic with the
 * app's own components (a server-side build of shell.prerender.tsx), writes each step's pair
 * into a page of its own (index.html for travel details, pages/<step>.html for the others, and
 * their table, built-pages.ts) with the inline chooser, and inlines the CSS rules that HTML
 * uses, so the first paint needs neither the stylesheet nor a script file. The full stylesheet
 * then loads without blocking (main.tsx waits for it before the app renders), and the scripts
 * are asked for once that first screen has painted.
 */
export function prerenderShell(): Plugin {
  let root = '';
  let outDir = '';
  let firstLoad: string[] = [];
  return {
    name: 'safar-prerender-shell',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
    },
    generateBundle(_options, bundle) {
      firstLoad = firstLoadChunks(bundle);
    },
    async closeBundle() {
      mkdirSync(path.join(root, 'node_modules/.cache'), { recursive: true });
      // Inside the project, so the server-side build's imports resolve from node_modules; one
      // directory per build, since builds can run side by side (the bundle-size test, e2e).
      const ssrOut = mkdtempSync(path.join(root, 'node_modules/.cache/safar-prerender-'));
      try {
        await build({
          root,
          configFile: path.join(root, 'vite.config.ts'),
          logLevel: 'warn',
          build: { ssr: path.join(root, 'src/web/prerender/shell.prerender.tsx'), outDir: ssrOut, emptyOutDir: true },
          // Packages whose modules import CSS (the Arabic font) are bundled, so node never loads a .css file.
          ssr: { noExternal: ['@fontsource-variable/noto-sans-arabic'] },
        });
        const { renderShell } = (await import(pathToFileURL(path.join(ssrOut, 'shell.prerender.js')).href)) as typeof import('./shell.prerender');
        const file = path.join(outDir, 'index.html');
        const page = readFileSync(file, 'utf8');
        if (!page.includes(SHELL_MARK) || !page.includes(CHOOSER_MARK)) throw new Error('index.html lacks the app-shell or choose-shell mark');
        // 'body': the full stylesheet leaves <head>, with no inline onload handler (the CSP
        // allows none); scriptsAfterFirstPaint then loads it after the first paint.
        // The light scheme's variables (Mantine's and the theme's, mantine-theme-css.ts) are set
        // on the root element itself, which Beasties matches a selector under, not on.
        const beasties = new Beasties({
          path: outDir,
          publicPath: '/',
          preload: 'body',
          fonts: true,
          pruneSource: false,
          reduceInlineStyles: false,
          logLevel: 'warn',
          allowRules: [/^:root\[data-mantine-color-scheme="?light"?\]$/],
        });
        // One page per step, each with only its own screen in both languages: the travel details
        // page stays as small as it was, and each of the others costs only the page it is.
        for (const step of STEP_IDS) {
          const shells = `<div data-shell-lang="en">${await renderShell('en', step)}</div><div data-shell-lang="ar">${await renderShell('ar', step)}</div>`;
          const withShell = page.replace(SHELL_MARK, shells).replace(CHOOSER_MARK, `<script>(${chooseShell.toString()})();</script>`);
          const target = path.join(outDir, builtPageFile(step));
          mkdirSync(path.dirname(target), { recursive: true });
          writeFileSync(target, scriptsAfterFirstPaint(await beasties.process(withShell), firstLoad));
        }
        writeFileSync(path.join(outDir, PAGES_TABLE), JSON.stringify(pagesTable(), null, 2));
      } finally {
        rmSync(ssrOut, { recursive: true, force: true });
      }
    },
  };
}

/**
 * The chunks the entry imports statically, recursively, as paths from the site's root, each after
 * the chunks it imports: what loadAfterFirstPaint asks for beside the entry. The build writes no
 * module preloads (vite.config.ts), so the page learns them from here.
 */
export function firstLoadChunks(bundle: Rolldown.OutputBundle): string[] {
  const entry = Object.values(bundle).find((output) => output.type === 'chunk' && output.isEntry);
  if (!entry || entry.type !== 'chunk') throw new Error('the build has no entry chunk');
  const ordered: string[] = [];
  const visit = (file: string) => {
    if (ordered.includes(`/${file}`)) return;
    const chunk = bundle[file];
    if (chunk?.type === 'chunk') chunk.imports.forEach(visit);
    ordered.push(`/${file}`);
  };
  entry.imports.forEach(visit);
  return ordered;
}

/**
 * Takes the entry script and the stylesheet out of the page, and has loadAfterFirstPaint ask
 * for them, with the chunks the entry imports at once (`firstLoad`), from the end of <body>,
 * once the first screen has painted.
 */
export function scriptsAfterFirstPaint(html: string, firstLoad: string[]): string {
  const entry = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(html);
  if (!entry) throw new Error('index.html has no module entry script');
  const stylesheets = [...html.matchAll(/\s*<link rel="stylesheet" crossorigin href="([^"]+)">/g)];
  let page = html.replace(entry[0], '');
  for (const link of stylesheets) page = page.replace(link[0], '');
  const loader = `<script>(${loadAfterFirstPaint.toString()})(${JSON.stringify(entry[1])}, ${JSON.stringify(firstLoad)}, ${JSON.stringify(stylesheets.map((link) => link[1]))});</script>`;
  return page.replace('</body>', `${loader}\n  </body>`);
}
