/**
 * Catalogue completeness (part of npm test): extracts messages from the source, then fails,
 * in the customer's catalogue (messages) and the broker's console's (broker) alike, when an
 * Arabic translation is missing or drops or invents a {placeholder}, when it translates
 * a term of the Arabic terminology any other way (terminology.ts), when a text of the server
 * (e-mails, pages, receipt, seed: server-texts.ts) does, or when the README's terminology table
 * is not the one terminology.ts writes.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readPo } from './read-po';
import { serverTermProblems } from './server-texts';
import { readmeTerminologyTable, terminologyProblems, terminologyTable } from './terminology';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
execFileSync(path.join(root, 'node_modules/.bin/lingui'), ['extract', '--clean'], { cwd: root, stdio: 'pipe' });

export interface CatalogProblem {
  msgid: string;
  problem: string;
}

// Each name once: a plural's branches may each write its value, or not ("one" in Arabic reads "مسافر واحد").
const placeholders = (text: string) => [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort().join(',');

/**
 * The catalogues, each checked by the same rules: the customer's app (messages) and the broker's
 * console (broker, src/web/broker), which has a catalogue of its own so neither app loads the
 * other's messages.
 */
const CATALOGUES = ['messages', 'broker'] as const;

const problems: CatalogProblem[] = [];
const counts: string[] = [];
for (const catalogue of CATALOGUES) {
  const english = readPo(path.join(root, `locales/en/${catalogue}.po`));
  const arabic = readPo(path.join(root, `locales/ar/${catalogue}.po`));
  const named = (msgid: string) => (catalogue === 'messages' ? msgid : `${catalogue}: ${msgid}`);
  for (const msgid of english.keys()) {
    const translation = arabic.get(msgid);
    if (!translation) problems.push({ msgid: named(msgid), problem: 'no Arabic translation' });
    else if (placeholders(translation) !== placeholders(msgid)) problems.push({ msgid: named(msgid), problem: 'placeholders differ' });
    // Lingui writes a plural's "#" with Intl.NumberFormat, whose first use held a phone's first
    // render of the quote list 80 ms (issue 19): a branch names its value, as "{count} plans".
    else if ([msgid, translation].some((text) => /plural,[^]*#/.test(text))) problems.push({ msgid: named(msgid), problem: 'a plural writes "#", not its value\'s placeholder' });
  }
  const terms = terminologyProblems(new Map([...arabic].filter(([msgid]) => english.has(msgid))));
  problems.push(...terms.map((problem) => ({ ...problem, msgid: named(problem.msgid) })));
  counts.push(`${english.size} ${catalogue === 'messages' ? 'app' : catalogue} messages`);
}

// The server's Arabic, held to the same list (issue 38).
const server = serverTermProblems();
problems.push(...server.map((problem) => ({ ...problem, msgid: `server: ${problem.msgid}` })));
counts.push('the server\'s texts');

const table = terminologyTable();
if (readmeTerminologyTable(readFileSync(path.join(root, 'README.md'), 'utf8')) !== table) {
  problems.push({ msgid: 'README.md', problem: `the "## Arabic terminology" table is not tests/i18n/terminology.ts's; it should read:\n${table}\n` });
}

if (problems.length) {
  console.error(`The catalogues have ${problems.length} problem(s):`);
  for (const p of problems) console.error(`  - ${p.problem}: ${JSON.stringify(p.msgid)}`);
  process.exit(1);
}
console.log(`i18n: ${counts.join(' and ')}, all translated to Arabic in the terminology's terms`);
