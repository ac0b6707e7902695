// @vitest-environment node
// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { pruneMantineCss } from './prune-mantine-css.plugin';

const CSS = `
:root { --mantine-color-safar-8: #0a47b2; }
body { margin: 0; }
.m_1b7284a3 { color: red; }
.m_77c9d27d, .m_0dead00 { padding: 0; }
.m_0dead00 { display: none; }
.m_1b7284a3 .m_0dead00 { margin: 0; }
@media (min-width: 48em) { .m_0dead00 { width: 1px; } }
@media (min-width: 62em) { .m_1b7284a3 { width: 2px; } }
@layer mantine { .m_fee9c77 { gap: 1px; } .m_0dead00 { gap: 2px; } }
@font-face { font-family: 'Inter Variable'; src: url(inter.woff2); }
.plain { color: blue; }
`;

/** What the app's chunks would contain: two components' class maps and a 7-digit class. */
const CODE = `const classes={root:"m_1b7284a3",inner:"m_77c9d27d"};const other={root:"m_fee9c77"};`;

describe('the stylesheet keeps only the Mantine rules of components in the bundle (issue 19)', () => {
  const pruned = pruneMantineCss(CSS, CODE);

  it('keeps every rule whose Mantine classes all occur in the code, and every rule with none', () => {
    for (const kept of ['--mantine-color-safar-8', 'body', '.m_1b7284a3 { color: red; }', '.m_fee9c77', "font-family: 'Inter Variable'", '.plain', '(min-width: 62em)']) {
      expect(pruned).toContain(kept);
    }
  });

  it('drops rules of a component the code never renders, in @media and @layer too, and the at-rules left empty', () => {
    expect(pruned).not.toContain('m_0dead00');
    expect(pruned).not.toContain('(min-width: 48em)');
    expect(pruned).toContain('@layer mantine');
  });

  it('keeps the used selectors of a selector list', () => {
    expect(pruned).toMatch(/\.m_77c9d27d\s*\{\s*padding: 0;/);
  });
});
