import postcss from 'postcss';
import type { Plugin } from 'vite';

/** Mantine's CSS-module class names, as its components' code and its stylesheet both write them. */
const MANTINE_CLASS = /\bm_[0-9a-f]{6,8}\b/g;

/**
 * The stylesheet without the rules of Mantine components the app never renders: a rule is kept
 * when every Mantine class in its selector occurs in the app's code (a selector list keeps the
 * selectors that do), and every rule without a Mantine class is kept. Mantine's full stylesheet
 * is 280 KB; a phone parsed all of it, and matched the page against it, as it loaded (issue 19).
 */
export function pruneMantineCss(css: string, code: string): string {
  const used = new Set(code.match(MANTINE_CLASS));
  const root = postcss.parse(css);
  root.walkRules((rule) => {
    const kept = rule.selectors.filter((selector) => (selector.match(MANTINE_CLASS) ?? []).every((name) => used.has(name)));
    if (kept.length === 0) rule.remove();
    else if (kept.length < rule.selectors.length) rule.selectors = kept;
  });
  // At-rules left empty (a @media of removed rules) go too; @font-face and the like have declarations.
  root.walkAtRules((atRule) => {
    if (atRule.nodes !== undefined && atRule.nodes.length === 0) atRule.remove();
  });
  return root.toString();
}

/**
 * Prunes every stylesheet of the client build against all of its JavaScript (every chunk, lazy
 * ones included, so a later screen keeps its styles), before the files are written and before
 * the pre-rendered page inlines its critical CSS from them (prerender-shell.plugin.ts).
 */
export function pruneMantineCssPlugin(): Plugin {
  return {
    name: 'safar-prune-mantine-css',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    enforce: 'post',
    generateBundle(_options, bundle) {
      const code = Object.values(bundle)
        .map((file) => (file.type === 'chunk' ? file.code : ''))
        .join('\n');
      for (const file of Object.values(bundle)) {
        if (file.type === 'asset' && file.fileName.endsWith('.css') && typeof file.source === 'string') file.source = pruneMantineCss(file.source, code);
      }
    },
  };
}
