import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * Issue 38 item 4: a newcomer's `npm install` prints nothing to wonder about. npm warns
 * EBADENGINE for each locked package whose `engines.node` the declared engine does not meet, and
 * lists each package with an install script that `allowScripts` does not name; both are read here
 * from the lock, so a dependency bump that brings either back fails `npm test`.
 */
const root = path.resolve(import.meta.dirname, '../..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string }; allowScripts?: Record<string, boolean> };
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[]; hasInstallScript?: boolean; optional?: boolean }>;
};
const packageName = (key: string) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);

describe('a quiet npm install', () => {
  it('locks no package whose engines.node the lowest declared Node version does not meet (no EBADENGINE)', () => {
    const lowest = semver.minVersion(manifest.engines.node)!.version;
    const unmet = Object.entries(lock.packages)
      .filter(([key, entry]) => key !== '' && !entry.optional && !Array.isArray(entry.engines) && entry.engines?.node && !semver.satisfies(lowest, entry.engines.node))
      .map(([key, entry]) => `${packageName(key)}@${entry.version} wants node ${(entry.engines as { node: string }).node}`);
    expect(unmet).toEqual([]);
  });

  it('names in allowScripts every locked package that has an install script', () => {
    const unnamed = Object.entries(lock.packages)
      .filter(([key, entry]) => key !== '' && entry.hasInstallScript && manifest.allowScripts?.[packageName(key)] !== true)
      .map(([key]) => packageName(key));
    expect([...new Set(unnamed)]).toEqual([]);
  });
});
