import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ROOT, markBuiltAt, staleness } from './build-staleness';

/** When `npm start` builds again (issue 19 part 4): only when a source is newer than the output. */

let dir: string;
const file = (name: string, atMs: number) => {
  const full = path.join(dir, name);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, name);
  utimesSync(full, new Date(atMs), new Date(atMs));
  return full;
};

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'safar-staleness-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('staleness of a build', () => {
  test('is none while every source is older than the output', () => {
    file('src/a.ts', 1_000_000);
    file('src/deep/b.ts', 2_000_000);
    const output = file('out/index.html', 3_000_000);
    expect(staleness(output, [path.join(dir, 'src')], 'the build')).toBeNull();
  });

  test('names the newer source, also one deep in a folder', () => {
    file('src/a.ts', 1_000_000);
    const newer = file('src/deep/b.ts', 4_000_000);
    const output = file('out/index.html', 3_000_000);
    expect(staleness(output, [path.join(dir, 'src')], 'the build')).toBe(`${path.relative(ROOT, newer)} is newer than the build`);
  });

  test('asks for a build when there is no output yet, and passes over a source that does not exist', () => {
    file('src/a.ts', 1_000_000);
    expect(staleness(path.join(dir, 'out/index.html'), [path.join(dir, 'src'), path.join(dir, 'missing.json')], 'the build')).toBe('the build does not exist yet');
  });

  test('a source saved while the build ran makes the next start build again', () => {
    const output = file('out/index.html', 5_000_000);
    file('src/a.ts', 4_500_000); // saved after the build began at 4,000,000, before it finished
    expect(staleness(output, [path.join(dir, 'src')], 'the build')).toBeNull();
    markBuiltAt(output, 4_000_000);
    expect(staleness(output, [path.join(dir, 'src')], 'the build')).toMatch(/a\.ts is newer than the build$/);
  });
});
