// @vitest-environment node
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_THEME, deepMerge, defaultCssVariablesResolver, mergeMantineTheme, type CSSVariablesResolver } from '@mantine/core';
import { cssVariablesResolver, theme } from '../theme/theme';
import { applyPatch, DEPENDENCY_PATCHES } from './dependency-patches.plugin';

type CSSVariablesResolverResult = ReturnType<CSSVariablesResolver>;

const root = path.resolve(__dirname, '../../..');
const installed = (module: string) => readFileSync(path.join(root, 'node_modules', module), 'utf8');
const patchFor = (module: string) => DEPENDENCY_PATCHES.find((patch) => patch.module === module)!;

// The patched module is written inside node_modules, so its own imports resolve as the original's do.
// A fresh `npm ci` has no node_modules/.cache until a tool makes one.
mkdirSync(path.join(root, 'node_modules/.cache'), { recursive: true });
const scratch = mkdtempSync(path.join(root, 'node_modules/.cache/safar-patch-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('dependency patches (issue 19)', () => {
  it.each(DEPENDENCY_PATCHES.map((patch) => patch.module))('%s, as installed, still holds the patched text exactly once', (module) => {
    expect(() => applyPatch(installed(module), patchFor(module), module)).not.toThrow();
  });

  it('refuses a module that no longer holds the text, so an upgrade cannot drop a patch silently', () => {
    expect(() => applyPatch('export const x = 1;', DEPENDENCY_PATCHES[0]!, 'changed.mjs')).toThrow(/no longer contains its text/);
  });

  it("patched Mantine leaves out of a theme's variables the defaults it already sets, as the original does", async () => {
    const module = '@mantine/core/esm/core/MantineProvider/MantineCssVariables/remove-default-variables.mjs';
    // Beside the original, so its relative imports resolve; removed after.
    const file = path.join(root, 'node_modules', module.replace(/\.mjs$/, `.patch-test-${process.pid}.mjs`));
    writeFileSync(file, applyPatch(installed(module), patchFor(module), module));
    try {
      type Remove = (input: CSSVariablesResolverResult) => CSSVariablesResolverResult;
      const patched = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as { removeDefaultVariables: Remove };
      const original = (await import(/* @vite-ignore */ pathToFileURL(path.join(root, 'node_modules', module)).href)) as { removeDefaultVariables: Remove };
      const variables = deepMerge(defaultCssVariablesResolver(mergeMantineTheme(DEFAULT_THEME, theme)), cssVariablesResolver(mergeMantineTheme(DEFAULT_THEME, theme)));
      const cleaned = patched.removeDefaultVariables(variables);
      expect(cleaned).toEqual(original.removeDefaultVariables(variables));
      expect(Object.keys(cleaned.light)).toContain('--mantine-color-dimmed');
      expect(Object.keys(cleaned.variables).length).toBeLessThan(Object.keys(variables.variables).length);
    } finally {
      rmSync(file, { force: true });
    }
  });

  it('patched Lingui writes a plural that names its value without building an Intl.NumberFormat, and still formats a "#"', async () => {
    const module = '@lingui/core/dist/index.mjs';
    const file = path.join(scratch, 'lingui-core.mjs');
    // Its relative imports (none today) would not resolve from here; bare ones do.
    writeFileSync(file, applyPatch(installed(module), patchFor(module), module));
    const { setupI18n } = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as typeof import('@lingui/core');
    const i18n = setupI18n({
      locale: 'en',
      messages: { en: { named: '{count, plural, one {{count} plan} other {{count} plans}}', hash: '{count, plural, one {# plan} other {# plans}}' } },
    });
    const original = Intl.NumberFormat;
    let built = 0;
    Intl.NumberFormat = new Proxy(original, {
      construct: (target, args: ConstructorParameters<typeof Intl.NumberFormat>) => {
        built++;
        return new target(...args);
      },
    });
    try {
      expect(i18n._('named', { count: 7 })).toBe('7 plans');
      expect(built).toBe(0);
      expect(i18n._('hash', { count: 1234 })).toBe('1,234 plans');
      expect(built).toBe(1);
    } finally {
      Intl.NumberFormat = original;
    }
  });
});
