import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

/** A change to one module of a dependency, made as the browser's bundle is built. */
export interface DependencyPatch {
  /** The module's path inside node_modules. */
  module: string;
  /** Text the module must contain once, and what it becomes. */
  find: string;
  replace: string;
}

/**
 * Work two libraries do on every page load that a phone feels, and that this app does not need
 * (issue 19). Each is a text replacement in one module: the build fails if the text is no longer
 * there (an upgrade changed it), so a patch is never silently lost. The pre-render and tests
 * under vitest load the libraries from node_modules, unpatched, and render the same (on the
 * server no layout effect runs, and ids start as the patched hook keeps them; a plural reads the
 * same with or without its NumberFormat); the e2e tests and the bench run the build.
 */
export const DEPENDENCY_PATCHES: DependencyPatch[] = [
  {
    // Mantine's useId swaps in a random id from a layout effect, so every component that names
    // a field or a popover (inputs, checkboxes, selects, tooltips, collapses) renders twice as it
    // mounts, and React makes that second render at once, in one task, after the commit: the
    // quote list's 440 components re-rendered in one 20–40 ms block on every load, and the
    // hydrated form changed every field's id as it came alive. React's own id, the one Mantine's
    // hook starts with, is unique within the app's one root and the same on the server.
    module: '@mantine/hooks/esm/use-id/use-id.mjs',
    find: `	useIsomorphicEffect(() => {
		if (hasInitializedRef.current) return;
		hasInitializedRef.current = true;
		setUuid(randomId());
	}, []);`,
    replace: '',
  },
  {
    // Lingui formats a plural's "#" with Intl.NumberFormat even for a message without one, and
    // the first NumberFormat of a page costs a phone 80–120 ms (ICU's number data). The app's
    // plurals name their value ("{count} plans", checked by npm run i18n:check), so the number
    // is formatted only where a "#" is written.
    module: '@lingui/core/dist/index.mjs',
    find: `    const valueStr = number(locales, value, numberFormat);
    return message.replace(new RegExp(OCTOTHORPE_PH, "g"), valueStr);`,
    replace: `    if (!message.includes(OCTOTHORPE_PH)) return message;
    const valueStr = number(locales, value, numberFormat);
    return message.replace(new RegExp(OCTOTHORPE_PH, "g"), valueStr);`,
  },
  {
    // Mantine works out its default theme's CSS variables as this module loads, on every page
    // load, to leave out of the <style> element MantineProvider renders those its stylesheet
    // already sets. The app renders no such element (its theme's CSS is written at build,
    // mantine-theme-css.ts), so that work is done only if the function is ever called.
    module: '@mantine/core/esm/core/MantineProvider/MantineCssVariables/remove-default-variables.mjs',
    find: `const defaultCssVariables = defaultCssVariablesResolver(DEFAULT_THEME);
function removeDefaultVariables(input) {
`,
    replace: `let defaultCssVariables;
function removeDefaultVariables(input) {
	defaultCssVariables ??= defaultCssVariablesResolver(DEFAULT_THEME);
`,
  },
];

/** `code` with `patch` applied; throws if its text is not in the module exactly once. */
export function applyPatch(code: string, patch: DependencyPatch, id = 'the module'): string {
  const at = code.indexOf(patch.find);
  if (at < 0 || code.indexOf(patch.find, at + 1) >= 0) throw new Error(`dependency patch: ${id} no longer contains its text once; see dependency-patches.plugin.ts`);
  return code.slice(0, at) + patch.replace + code.slice(at + patch.find.length);
}

/** Applies DEPENDENCY_PATCHES to the modules they name as the app is built. */
export function dependencyPatchesPlugin(patches: DependencyPatch[] = DEPENDENCY_PATCHES): Plugin {
  return {
    name: 'safar-dependency-patches',
    enforce: 'pre',
    load(id) {
      const file = id.split('?')[0]!;
      const matching = patches.filter((patch) => file.replaceAll('\\', '/').endsWith(`/node_modules/${patch.module}`));
      if (matching.length === 0) return null;
      return matching.reduce((code, patch) => applyPatch(code, patch, file), readFileSync(file, 'utf8'));
    },
  };
}
