import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A small disk the test mounts and removes (issue 34 item 3): a tmpfs of a few megabytes in a new
 * temp folder, which a filler file makes full (ENOSPC, what PostgreSQL reports as 53100) and its
 * removal frees again. Mounting needs root (the tests run as root on Debian); where it is refused
 * (a CI machine without CAP_SYS_ADMIN) mountSmallDisk answers null and the caller injects the
 * same failures at the edge instead, and says so.
 */
export interface SmallDisk {
  /** The mount point: everything under it is on the small disk. */
  dir: string;
  /** Writes a filler file until the disk has not one block left. */
  fill(): void;
  /** Removes the filler: the space is there again at once. */
  free(): void;
  /** Unmounts the disk and removes its folder. */
  remove(): void;
}

export function mountSmallDisk(sizeMb: number, options: { mode?: string } = {}): SmallDisk | null {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'safar-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=${options.mode ?? '0700'}`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  const filler = path.join(dir, 'filler');
  return {
    dir,
    fill() {
      const fd = openSync(filler, 'a');
      try {
        // Big blocks first, then the last few kilobytes one page at a time.
        for (const size of [1024 * 1024, 64 * 1024, 4096]) {
          const block = Buffer.alloc(size, 1);
          try {
            for (;;) writeSync(fd, block);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          }
        }
      } finally {
        closeSync(fd);
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    remove() {
      try {
        execFileSync('umount', [dir], { stdio: 'ignore' });
      } catch {
        // Busy (a file still open): lazily, so the folder is gone once it is released.
        execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
