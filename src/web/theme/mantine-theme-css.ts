import {
  DEFAULT_THEME,
  convertCssVariables,
  deepMerge,
  defaultCssVariablesResolver,
  em,
  mergeMantineTheme,
  px,
  type CSSVariablesResolver,
  type MantineThemeOverride,
} from '@mantine/core';

type Variables = Record<string, string>;

/** The entries of `values` that differ from Mantine's own defaults, which its stylesheet already sets. */
function changed(values: Variables, defaults: Variables): Variables {
  return Object.fromEntries(Object.entries(values).filter(([name, value]) => defaults[name] !== value));
}

/**
 * The CSS that MantineProvider writes into two <style> elements as it renders, for `override`
 * and `resolver`: the theme's CSS variables (those that differ from Mantine's defaults) and the
 * breakpoint classes (hiddenFrom, visibleFrom). Mantine computes them on every mount, about 15 ms
 * of the first render at desktop speed (profiled on /checkout), four times that on a phone, and
 * the pre-rendered page carried them twice, once in each language's copy (issue 19). The theme
 * does not change while the app runs, so the build writes this once into the stylesheet
 * (mantine-theme-css.plugin.ts) and the provider writes neither element.
 * mantine-theme-css.test.tsx checks that it is what MantineProvider itself renders.
 */
export function mantineThemeCss(override: MantineThemeOverride, resolver: CSSVariablesResolver): string {
  const theme = mergeMantineTheme(DEFAULT_THEME, override);
  const merged = deepMerge(defaultCssVariablesResolver(theme), resolver(theme));
  const defaults = defaultCssVariablesResolver(DEFAULT_THEME);
  const variables = convertCssVariables({
    variables: changed(merged.variables, defaults.variables),
    light: changed(merged.light, defaults.light),
    dark: changed(merged.dark, defaults.dark),
  });
  const classes = Object.entries(theme.breakpoints)
    .map(([breakpoint, value]) => {
      const inPx = value.includes('px');
      const width = px(value) as number;
      return `@media (max-width: ${inPx ? `${width - 0.1}px` : em(width - 0.1)}) {.mantine-visible-from-${breakpoint} {display: none !important;}}@media (min-width: ${inPx ? `${width}px` : em(width)}) {.mantine-hidden-from-${breakpoint} {display: none !important;}}`;
    })
    .join('');
  return `${variables}\n${classes}\n`;
}
