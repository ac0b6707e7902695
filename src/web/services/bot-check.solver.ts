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

function toHex(buffer: ArrayBuffer): string {
  let hex = '';
  for (const byte of new Uint8Array(buffer)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** Resolves with the solution, or null when no number up to maxnumber matches (a forged challenge). */
export async function solveBotChallenge(challenge: BotChallenge): Promise<BotSolution | null> {
  const started = Date.now();
  const max = challenge.maxnumber ?? DEFAULT_MAX_NUMBER;
  const target = challenge.challenge.toLowerCase();
  for (let number = 0; number <= max; number += 1) {
    const digest = await crypto.subtle.digest(challenge.algorithm.toUpperCase(), encoder.encode(challenge.salt + number));
    if (toHex(digest) === target) {
      const { algorithm, salt, signature } = challenge;
      return { algorithm, challenge: challenge.challenge, number, salt, signature, took: Date.now() - started };
    }
  }
  return null;
}

/** The token proceed-review takes: base64 of the solution's JSON (every field is ASCII). */
export function encodeBotSolution(solution: BotSolution): string {
  return btoa(JSON.stringify(solution));
}
