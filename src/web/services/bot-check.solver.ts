/**
 * The ALTCHA v1 proof of work (RULINGS 16), dependency-free so it runs the same in a Web
 * Worker, on the main thread and under Node: find the number n in 0..maxnumber for which
 * SHA-256(salt + n), in hex, equals the challenge. The server verifies the answer with
 * altcha-lib's verifySolution, so the payload has exactly the fields that function reads.
 */

/** A challenge as bot-challenge answers it (botChallengeEndpoint). */
export interface BotChallenge {
  algorithm: string;
  challenge: string;
  maxnumber?: number | undefined;
  salt: string;
  signature: string;
}

/** The solved challenge the server takes, before base64 encoding. */
export interface BotSolution {
  algorithm: string;
  challenge: string;
  number: number;
  salt: string;
  signature: string;
  took: number;
}

/** altcha-lib's default upper bound, used when a challenge does not say. */
const DEFAULT_MAX_NUMBER = 1_000_000;

const encoder = new TextEncoder();

/** How many digests are asked for at once: one await per batch, not per number. */
const BATCH = 1000;

function fromHex(hex: string): Uint8Array | null {
  if (!/^([0-9a-f]{2})+$/.test(hex)) return null;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function sameBytes(buffer: ArrayBuffer, target: Uint8Array): boolean {
  const bytes = new Uint8Array(buffer);
  if (bytes.length !== target.length) return false;
  for (let i = 0; i < bytes.length; i += 1) if (bytes[i] !== target[i]) return false;
  return true;
}

/**
 * Resolves with the solution, or null when no number up to maxnumber matches (a forged
 * challenge). The digests of a batch of numbers are computed together and checked in order, so
 * the answer is the lowest matching number, as one at a time would find it, in a fraction of the
 * time (each awaited digest cost a round trip to the browser's crypto; issue 19).
 */
export async function solveBotChallenge(challenge: BotChallenge): Promise<BotSolution | null> {
  const started = Date.now();
  const max = challenge.maxnumber ?? DEFAULT_MAX_NUMBER;
  const target = fromHex(challenge.challenge.toLowerCase());
  if (!target) return null;
  const algorithm = challenge.algorithm.toUpperCase();
  for (let first = 0; first <= max; first += BATCH) {
    const numbers = Array.from({ length: Math.min(BATCH, max - first + 1) }, (_, i) => first + i);
    const digests = await Promise.all(numbers.map((number) => crypto.subtle.digest(algorithm, encoder.encode(challenge.salt + number))));
    const found = digests.findIndex((digest) => sameBytes(digest, target));
    if (found >= 0) {
      const { salt, signature } = challenge;
      return { algorithm: challenge.algorithm, challenge: challenge.challenge, number: numbers[found]!, salt, signature, took: Date.now() - started };
    }
  }
  return null;
}

/** The token proceed-review takes: base64 of the solution's JSON (every field is ASCII). */
export function encodeBotSolution(solution: BotSolution): string {
  return btoa(JSON.stringify(solution));
}
