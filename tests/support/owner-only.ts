import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * What under `root` (itself included) breaks the owner-only rule of DATA_DIR (issue 33 part 4):
 * each folder that is not exactly 0700 and each file that is not exactly 0600, as "path mode"
 * lines to print in a failed assertion. Links are not followed. Tests run as root, which reads
 * whatever the modes say, so the modes are what is checked.
 */
export function notOwnerOnly(root: string): string[] {
  const offenders: string[] = [];
  const visit = (target: string) => {
    const stats = lstatSync(target);
    const mode = stats.mode & 0o777;
    const name = path.relative(root, target) || '.';
    if (stats.isDirectory()) {
      if (mode !== 0o700) offenders.push(`${name}/ ${mode.toString(8)}`);
      for (const entry of readdirSync(target)) visit(path.join(target, entry));
    } else if (stats.isFile() && mode !== 0o600) offenders.push(`${name} ${mode.toString(8)}`);
  };
  visit(root);
  return offenders;
}
