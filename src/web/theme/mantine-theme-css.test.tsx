import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { mantineThemeCss } from './mantine-theme-css';
import { cssVariablesResolver, theme } from './theme';

/** The text of each <style> element MantineProvider renders by default, as the browser would read it. */
function providerStyles(): string[] {
  const html = renderToStaticMarkup(
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <p>x</p>
    </MantineProvider>,
  );
  const container = document.createElement('div');
  container.innerHTML = html;
  return [...container.querySelectorAll('style')].map((style) => style.textContent ?? '');
}

describe("the theme's CSS, written once at build (issue 19)", () => {
  it("is exactly what MantineProvider would write on every mount: the theme's variables, then the breakpoint classes", () => {
    const styles = providerStyles();
    expect(styles).toHaveLength(2);
    expect(mantineThemeCss(theme, cssVariablesResolver)).toBe(`${styles[0]}\n${styles[1]}\n`);
  });

  it("carries the app's own values: Safar blue, the darker dimmed and error colours, and the controls' border", () => {
    const css = mantineThemeCss(theme, cssVariablesResolver);
    expect(css).toContain('--safar-control-border: var(--mantine-color-gray-6)');
    expect(css).toContain('--mantine-color-dimmed: var(--mantine-color-gray-7)');
    expect(css).toContain('--mantine-color-error: var(--mantine-color-red-9)');
    expect(css).toContain(`--mantine-color-safar-7: ${theme.colors!.safar![7]}`);
    expect(css).toContain('.mantine-hidden-from-md {display: none !important;}');
  });
});
