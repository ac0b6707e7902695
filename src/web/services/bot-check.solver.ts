import { createSha256 } from './sha256';

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

/** The eight big-endian words of a 64-digit hex digest, or null for anything else. */
function digestWords(hex: string): Uint32Array | null {
  if (!/^[0-9a-f]{64}$/.test(hex)) return null;
  return Uint32Array.from({ length: 8 }, (_, i) => parseInt(hex.slice(i * 8, i * 8 + 8), 16));
}

/**
 * Resolves with the solution, or null when no number up to maxnumber matches (a forged
 * challenge) or the challenge asks for another algorithm than the SHA-256 the server issues and
 * takes. Numbers are tried in order, so the answer is the lowest matching one. Each digest is
 * computed synchronously in place (sha256.ts): the browser's asynchronous digest made the
 * worker's search about ten times slower, a wait Buy now could meet (issue 19).
 */
export async function solveBotChallenge(challenge: BotChallenge): Promise<BotSolution | null> {
  const started = Date.now();
  const max = challenge.maxnumber ?? DEFAULT_MAX_NUMBER;
  const target = digestWords(challenge.challenge.toLowerCase());
  if (!target || challenge.algorithm.toUpperCase() !== 'SHA-256') return null;
  const salt = new TextEncoder().encode(challenge.salt);
  const hasher = createSha256(salt.length + String(max).length);
  hasher.message.set(salt);
  for (let number = 0; number <= max; number += 1) {
    // The number's decimal digits after the salt.
    const digits = String(number);
    for (let i = 0; i < digits.length; i += 1) hasher.message[salt.length + i] = digits.charCodeAt(i);
    const words = hasher.digest(salt.length + digits.length);
    if (words[0] === target[0] && words[1] === target[1] && words[2] === target[2] && words[3] === target[3] && words[4] === target[4] && words[5] === target[5] && words[6] === target[6] && words[7] === target[7]) {
      const { salt: saltText, signature } = challenge;
      return { algorithm: challenge.algorithm, challenge: challenge.challenge, number, salt: saltText, signature, took: Date.now() - started };
    }
  }
  return null;
}

/** The token proceed-review takes: base64 of the solution's JSON (every field is ASCII). */
export function encodeBotSolution(solution: BotSolution): string {
  return btoa(JSON.stringify(solution));
}
