import { appStaleness, currentBuildsLine, startCreatesDataDir } from './build-if-stale';
import { currentTemplate } from './db/embedded-template';
import { bundleStaleness } from './server-bundle';

/**
 * `npm start`'s first step when nothing needs building (issue 34 item 6), compiled beside the
 * server bundle (dist-server/start-check.js) so it runs under plain node: tsx's loader alone cost
 * about 0.3 s of a 2.3 s restart on a quiet machine, and more than a second under load. It checks
 * what build-if-stale.ts checks, with the same code, and prints the same line when the builds are
 * current (exit 0). Anything stale, its own bundle included, exits 1 without a word, and `npm
 * start` runs build-if-stale.ts under tsx, from the sources, to build it; so does a clone that has
 * no dist-server/ yet.
 */
const startedAt = performance.now();
const checkTemplate = startCreatesDataDir();
if (bundleStaleness() || appStaleness() || (checkTemplate && !currentTemplate())) process.exit(1);
console.log(currentBuildsLine(Math.round(performance.now() - startedAt), checkTemplate));
