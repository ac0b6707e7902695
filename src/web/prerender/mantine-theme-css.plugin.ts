import type { Plugin } from 'vite';
import { mantineThemeCss } from '../theme/mantine-theme-css.ts';
import { cssVariablesResolver, theme } from '../theme/theme.ts';

/** The stylesheet main.tsx imports for the theme's CSS variables and breakpoint classes. */
export const MANTINE_THEME_CSS = 'virtual:mantine-theme.css';
const RESOLVED = `\0${MANTINE_THEME_CSS}`;

/**
 * Serves the theme's CSS (mantine-theme-css.ts) as a stylesheet of the app, computed once as the
 * app is built or served, in place of the two <style> elements MantineProvider would compute and
 * render on every mount (app.tsx turns them off). In the entry's stylesheet, the pre-render
 * inlines the rules its first screen uses, as it does the rest.
 */
export function mantineThemeCssPlugin(): Plugin {
  return {
    name: 'safar-mantine-theme-css',
    resolveId: (id) => (id === MANTINE_THEME_CSS ? RESOLVED : null),
    load: (id) => (id === RESOLVED ? mantineThemeCss(theme, cssVariablesResolver) : null),
  };
}
