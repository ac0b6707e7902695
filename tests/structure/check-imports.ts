import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../support/server-process';

/**
 * The structure check of `npm test` (issue 35 item 3): the arrows of the house run one way.
 * It reads every import of the product's code (static `from '…'`, `import '…'` and dynamic
 * `import('…')`), resolves the relative ones and fails, naming each file and import, on:
 * - machines/ importing src/web/ or src/server/ (the journey's logic knows no screen and no server);
 * - src/web/ importing src/server/ (the browser's code never carries the server's);
 * - src/server/ importing src/web/ or machines/ (the server knows the contract only);
 * - src/contract/ importing anything of web, server or machines (shared by all three);
 * - src/server/app.ts imported by anything but src/server/main.ts and tests (so no module the
 *   app is built from can import it back: no circle around the app);
 * - the broker's console (src/web/broker/) importing anything of the product but itself, the
 *   contract, the Mantine theme (src/web/theme/) and its catalogues (locales/), and the
 *   customer's app (the rest of src/web/) importing the console: two apps that share no code
 *   but the contract and the theme, so neither build carries the other.
 * Tests (tests/, *.test.*) may reach across.
 */

const SOURCE_DIRS = ['machines', 'src'];
const CODE = /\.(ts|tsx)$/;
const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : CODE.test(name) ? [full] : [];
  });
}

const isTest = (file: string) => /\.test\.tsx?$/.test(file) || file.startsWith('tests/');
const within = (file: string, dir: string) => file === dir || file.startsWith(`${dir}/`);

interface Rule {
  from: string;
  to: string[];
  why: string;
}

const RULES: Rule[] = [
  { from: 'machines', to: ['src/web', 'src/server'], why: 'the journey machines know no screen and no server' },
  { from: 'src/web', to: ['src/server'], why: "the browser's code never carries the server's" },
  { from: 'src/server', to: ['src/web', 'machines'], why: 'the server knows the contract (src/contract) only' },
  { from: 'src/contract', to: ['src/web', 'src/server', 'machines'], why: 'the contract is shared by all three and depends on none' },
];

/** What the console (src/web/broker) may import besides itself and npm packages. */
const CONSOLE = 'src/web/broker';
const CONSOLE_MAY_IMPORT = [CONSOLE, 'src/contract', 'src/web/theme', 'locales'];

/** Every import of a file, resolved to a path from the root when it is relative. */
function importsOf(file: string, read: (file: string) => string): string[] {
  const text = read(file);
  const found: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2]!;
    if (specifier.startsWith('.')) found.push(path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, file)), specifier)).replace(/\.(ts|tsx|js)$/, ''));
  }
  return found;
}

/** The product's code files, from the root. */
export const sourceFiles = () => SOURCE_DIRS.flatMap((dir) => filesUnder(path.join(ROOT, dir))).map((file) => path.relative(ROOT, file));
const readSource = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** Every import among `files` (paths from the root, read by `read`) that runs the wrong way. */
export function structureProblems(files: string[] = sourceFiles(), read: (file: string) => string = readSource): string[] {
  const problems: string[] = [];
  for (const file of files) {
    if (isTest(file)) continue;
    for (const target of importsOf(file, read)) {
      for (const rule of RULES) {
        if (!within(file, rule.from)) continue;
        const into = rule.to.find((dir) => within(target, dir));
        if (into) problems.push(`${file} imports ${target}: ${rule.from}/ must not import ${into}/ (${rule.why})`);
      }
      if (target === 'src/server/app' && file !== 'src/server/main.ts') problems.push(`${file} imports src/server/app: only src/server/main.ts and tests may (no circle around the app)`);
      if (within(file, CONSOLE) && !CONSOLE_MAY_IMPORT.some((dir) => within(target, dir))) {
        problems.push(`${file} imports ${target}: ${CONSOLE}/ may import only itself, ${CONSOLE_MAY_IMPORT.slice(1).join(', ')} and npm packages (the console shares only the contract and the theme)`);
      }
      if (within(file, 'src/web') && !within(file, CONSOLE) && within(target, CONSOLE)) {
        problems.push(`${file} imports ${target}: the customer's app (src/web/) must not import ${CONSOLE}/ (the console never rides in the customer's build)`);
      }
    }
  }
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const problems = structureProblems();
  for (const problem of problems) console.error(problem);
  console.log(problems.length === 0 ? 'structure: every import runs one way' : `structure: ${problems.length} import(s) run the wrong way`);
  process.exitCode = problems.length === 0 ? 0 : 1;
}
