import { createHash } from 'node:crypto';
import { constants, copyFileSync, cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A new embedded data directory as a copy of one made once (issue 34 item 6). Creating one the
 * long way, initdb in a child process, then every migration and the whole seed, took 11.6 s to the
 * first page on a quiet machine and 25.5 s under load; the template is that same directory, made
 * by `npm start`'s build step (build-if-stale.ts) when its inputs change, and copying it takes a
 * fraction of a second. The start still runs the migrations and the seed over the copy, exactly as
 * over an existing database: they find nothing to do, and whatever the template lacks (the demo
 * data of a sandbox start, a migration added since) is added then, the same way.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Raised when what a template holds changes without its inputs changing (how it is built). */
const TEMPLATE_FORMAT = 1;

/** What a template's content is made of: a change to any of them is a new template. */
const TEMPLATE_INPUTS = [
  'src/server/db/migrations',
  'src/server/db/seed.ts',
  'src/server/db/seed-data.ts',
  'src/server/db/seed-catalogue.ts',
  // PGlite's version (what initdb writes) and the country data packages the seed reads.
  'package-lock.json',
] as const;

/** Where templates are kept: beside the server bundle, a build output like it. */
export const TEMPLATES_DIR = path.join(ROOT, 'dist-server');
const TEMPLATE_PREFIX = 'pglite-template-';

/**
 * A digest of the template's inputs (file contents, not times: a checkout or a touch does not
 * make a new one). Reading them costs a few milliseconds at a start.
 */
export function templateKey(root = ROOT): string {
  const hash = createHash('sha256').update(`format ${TEMPLATE_FORMAT}\n`);
  const visit = (file: string) => {
    const full = path.join(root, file);
    let names: string[] | null = null;
    try {
      names = readdirSync(full).sort();
    } catch {
      // a file, not a folder
    }
    if (names) {
      for (const name of names) visit(path.join(file, name));
      return;
    }
    hash.update(`${file}\n`).update(readFileSync(full));
  };
  for (const input of TEMPLATE_INPUTS) visit(input);
  return hash.digest('hex').slice(0, 16);
}

/** The template folder for `key` (whether or not it exists). */
export const templateDirOf = (key: string, templatesDir = TEMPLATES_DIR) => path.join(templatesDir, `${TEMPLATE_PREFIX}${key}`);

/** Every template folder in `templatesDir`, finished or not (to remove the ones that are not current). */
export function templateDirs(templatesDir = TEMPLATES_DIR): string[] {
  try {
    return readdirSync(templatesDir)
      .filter((name) => name.startsWith(TEMPLATE_PREFIX))
      .map((name) => path.join(templatesDir, name));
  } catch {
    return [];
  }
}

/**
 * The template of the current inputs when it was built whole (a build renames it into place only
 * once it is complete), else null: the caller then creates the directory the long way.
 */
export function currentTemplate(templatesDir = TEMPLATES_DIR): string | null {
  const dir = templateDirOf(templateKey(), templatesDir);
  return existsSync(path.join(dir, 'PG_VERSION')) ? dir : null;
}

/**
 * Copies `template` into `pgliteDir` (created or empty), PG_VERSION last: it is what says a data
 * directory exists, so a copy cut short is copied again at the next start instead of opened. A
 * copy-on-write clone where the file system has them, a plain copy elsewhere. Copies keep the
 * template's modes, which its build made owner-only; the caller tightens the copy all the same,
 * as after initdb.
 */
export function copyTemplate(template: string, pgliteDir: string): void {
  const marker = path.join(template, 'PG_VERSION');
  cpSync(template, pgliteDir, { recursive: true, force: true, mode: constants.COPYFILE_FICLONE, filter: (source) => source !== marker });
  copyFileSync(marker, path.join(pgliteDir, 'PG_VERSION'), constants.COPYFILE_FICLONE);
}
