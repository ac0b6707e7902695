// @vitest-environment node
// @vitest-environment node
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSha256 } from './sha256';

const hex = (words: Uint32Array) => Array.from(words, (word) => word.toString(16).padStart(8, '0')).join('');

describe('createSha256 (the bot check’s synchronous SHA-256)', () => {
  it('gives node’s SHA-256 for every length from 0 to 200 bytes, across the padding and block boundaries', () => {
    const hasher = createSha256(200);
    for (let length = 0; length <= 200; length += 1) {
      const message = randomBytes(length);
      hasher.message.set(message);
      expect(hex(hasher.digest(length)), `length ${length}`).toBe(createHash('sha256').update(message).digest('hex'));
    }
  });

  it('gives the right digest for a short message after a long one in the same hasher (no bytes left over)', () => {
    const hasher = createSha256(150);
    hasher.message.set(randomBytes(150));
    hasher.digest(150);
    hasher.message.set(Buffer.from('abc'));
    expect(hex(hasher.digest(3))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('refuses a message longer than it was made for', () => {
    expect(() => createSha256(10).digest(11)).toThrow(RangeError);
  });
});
