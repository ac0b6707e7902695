import { chmodSync, lstatSync, readdirSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';

/**
 * DATA_DIR is owner-only (issue 33 part 4): the database, the outbox's e-mails (names, passports,
 * policies), admin.json's token and backups are readable by the account that runs Safar and
 * nobody else. Every Safar process sets this umask before it writes anything, so what it and
 * PGlite create is 0700 / 0600; `tightenDataDirModes` brings what an older version (or a copy, an
 * unpacked backup) left looser into line.
 */
export const OWNER_ONLY_UMASK = 0o077;

const GROUP_OR_OTHERS = 0o077;

/** How many folders and files `tightenDataDirModes` changed. */
export interface TightenedModes {
  directories: number;
  files: number;
}

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Makes `root` and everything under it owner-only: a folder that grants anything to group or
 * others becomes 0700, such a regular file 0600; a tighter mode is left as it is. A symbolic link
 * is neither followed nor changed (it may point anywhere: tightening its target is not Safar's
 * business), and nor is anything else that is not a folder or a file. `root` itself may be a link
 * (DATA_DIR on another disk): that one is followed. Top-down, each folder before what it holds:
 * once `root` is 0700 nobody else can reach inside it, so nothing can be swapped for a link
 * between a look and a change. A missing `root` has nothing to tighten.
 */
export function tightenDataDirModes(root: string): TightenedModes {
  const counts: TightenedModes = { directories: 0, files: 0 };
  let top: Stats;
  try {
    top = statSync(root);
  } catch (error) {
    if (missing(error)) return counts;
    throw error;
  }
  if (!top.isDirectory()) return counts;
  const tighten = (target: string, stats: Stats) => {
    if ((stats.mode & GROUP_OR_OTHERS) === 0) return;
    const directory = stats.isDirectory();
    try {
      chmodSync(target, directory ? 0o700 : 0o600);
    } catch (error) {
      throw new Error(`${target} cannot be made owner-only (${(error as NodeJS.ErrnoException).code ?? 'unknown error'}): DATA_DIR must belong to the account that runs Safar.`);
    }
    if (directory) counts.directories += 1;
    else counts.files += 1;
  };
  tighten(root, top);
  const folders = [root];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch (error) {
      // Removed meanwhile by its owner (a restore's staging folder, say): nothing left to tighten.
      if (missing(error)) continue;
      throw error;
    }
    for (const name of names) {
      const entry = path.join(folder, name);
      let stats: Stats;
      try {
        stats = lstatSync(entry);
      } catch (error) {
        if (missing(error)) continue;
        throw error;
      }
      if (stats.isDirectory()) {
        tighten(entry, stats);
        folders.push(entry);
      } else if (stats.isFile()) tighten(entry, stats);
    }
  }
  return counts;
}
