/**
 * SHA-256 (FIPS 180-4) for the bot check's proof of work, synchronous and allocation-free per
 * digest. The browser's `crypto.subtle.digest` is asynchronous: tens of thousands of small
 * digests cost a promise and a trip to the browser's crypto each, about 10 µs, where this costs
 * well under one (issue 19). Used only where the answer is checked by the server anyway
 * (altcha-lib's verifySolution), never to protect a secret.
 */

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19] as const;

/** The message schedule, reused by every digest. */
const W = new Uint32Array(64);

/** Mixes one 64-byte block of `bytes`, from `offset`, into `state`. */
function compress(state: Uint32Array, bytes: Uint8Array, offset: number): void {
  for (let i = 0; i < 16; i += 1) {
    const at = offset + i * 4;
    W[i] = (bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!;
  }
  for (let i = 16; i < 64; i += 1) {
    const w15 = W[i - 15]!;
    const w2 = W[i - 2]!;
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) | 0;
  }
  let a = state[0]!;
  let b = state[1]!;
  let c = state[2]!;
  let d = state[3]!;
  let e = state[4]!;
  let f = state[5]!;
  let g = state[6]!;
  let h = state[7]!;
  for (let i = 0; i < 64; i += 1) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const ch = (e & f) ^ (~e & g);
    const t1 = (h + S1 + ch + K[i]! + W[i]!) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const maj = (a & b) ^ (a & c) ^ (b & c);
    const t2 = (S0 + maj) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
  state[5] = (state[5]! + f) | 0;
  state[6] = (state[6]! + g) | 0;
  state[7] = (state[7]! + h) | 0;
}

/**
 * A reusable hasher for messages of at most `maxLength` bytes: write the message into
 * `message` (from 0), then `digest(length)` answers SHA-256 of its first `length` bytes as eight
 * big-endian words, in an array the next digest overwrites.
 */
export function createSha256(maxLength: number) {
  // Room for the message, its 0x80 terminator and the 8-byte length, in whole blocks.
  const buffer = new Uint8Array(Math.ceil((maxLength + 9) / 64) * 64);
  const state = new Uint32Array(8);
  return {
    message: buffer,
    digest(length: number): Uint32Array {
      if (length > maxLength) throw new RangeError(`message of ${length} bytes, at most ${maxLength}`);
      const blocks = Math.ceil((length + 9) / 64);
      const end = blocks * 64;
      buffer[length] = 0x80;
      buffer.fill(0, length + 1, end - 8);
      // The length in bits, big-endian in the last eight bytes (messages here are far below 2^32 bits).
      const bits = length * 8;
      buffer[end - 8] = 0;
      buffer[end - 7] = 0;
      buffer[end - 6] = 0;
      buffer[end - 5] = 0;
      buffer[end - 4] = bits >>> 24;
      buffer[end - 3] = (bits >>> 16) & 0xff;
      buffer[end - 2] = (bits >>> 8) & 0xff;
      buffer[end - 1] = bits & 0xff;
      state.set(INITIAL);
      for (let offset = 0; offset < end; offset += 64) compress(state, buffer, offset);
      return state;
    },
  };
}
