/**
 * Full-page screenshots of the shell for a visual check in both languages and at both widths.
 *
 *   node_modules/.bin/tsx tests/support/screenshots.ts [baseUrl] [outDir]
 *
 * baseUrl defaults to http://localhost:8080 (npm start), outDir to ./screenshots. Files are
 * named <route>-<lang>-<width>.png, e.g. traveller-details-ar-375.png.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { FULL_PAGE_SCREENSHOT_STYLE, launchChromium } from './chromium';

const ROUTES = [
  { name: 'traveller-details', path: '/traveller-details' },
  { name: 'compare-quotes', path: '/compare-quotes?uuid=demo' },
];
const LANGUAGES = ['en', 'ar'] as const;
const WIDTHS = [375, 1280];
const HEIGHT = { 375: 812, 1280: 800 } as Record<number, number>;

async function main() {
  const baseUrl = (process.argv[2] ?? 'http://localhost:8080').replace(/\/+$/, '');
  const outDir = path.resolve(process.argv[3] ?? 'screenshots');
  await mkdir(outDir, { recursive: true });

  const browser = await launchChromium();
  const problems: string[] = [];
  try {
    for (const route of ROUTES) {
      for (const lang of LANGUAGES) {
        for (const width of WIDTHS) {
          const context = await browser.newContext({ viewport: { width, height: HEIGHT[width] ?? 800 } });
          const page = await context.newPage();
          const name = `${route.name}-${lang}-${width}`;
          page.on('console', (message) => {
            if (message.type() === 'error') problems.push(`${name}: ${message.text()}`);
          });
          page.on('pageerror', (error) => problems.push(`${name}: ${error.message}`));
          const separator = route.path.includes('?') ? '&' : '?';
          await page.goto(`${baseUrl}${route.path}${separator}lang=${lang}`);
          await page.locator('html[data-app="live"]').waitFor({ state: 'attached' });
          await page.locator('main h1').waitFor({ state: 'visible' });
          await page.waitForLoadState('networkidle');
          await page.evaluate(() => document.fonts.ready.then(() => undefined));
          const file = path.join(outDir, `${name}.png`);
          await page.screenshot({ path: file, fullPage: true, style: FULL_PAGE_SCREENSHOT_STYLE });
          console.log(file);
          await context.close();
        }
      }
    }
  } finally {
    await browser.close();
  }
  if (problems.length > 0) {
    console.error(`Errors in the browser console:\n  ${problems.join('\n  ')}`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
