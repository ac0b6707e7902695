import { botChallengeEndpoint } from '../../contract/quote.endpoints';
import type { Language } from '../../contract/endpoint';
import { botCheckSettings } from './bot-check.config';
import { encodeBotSolution, solveBotChallenge, type BotChallenge, type BotSolution } from './bot-check.solver';
import { whenIdle } from '../shell/when-idle';
import { callEndpoint } from './http-client';
import { getRecaptchaToken, loadRecaptcha } from './recaptcha';

/** The challenge could not be solved: the server sent one no number answers, or solving failed. */
export class BotCheckError extends Error {
  constructor(message: string) {
    super(`bot check: ${message}`);
    this.name = 'BotCheckError';
  }
}

/**
 * Solves in a Web Worker. Vite bundles the worker from this exact `new Worker(new URL(...))`
 * form as a file of this origin, so the page's CSP needs only `worker-src 'self'`.
 */
function solveInWorker(challenge: BotChallenge): Promise<BotSolution | null> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./bot-check.worker.ts', import.meta.url), { type: 'module' });
    worker.addEventListener('message', (event: MessageEvent<BotSolution | null>) => {
      worker.terminate();
      resolve(event.data);
    });
    worker.addEventListener('error', (event) => {
      worker.terminate();
      reject(new Error(event.message || 'worker failed'));
    });
    worker.postMessage(challenge);
  });
}

async function solve(challenge: BotChallenge): Promise<BotSolution | null> {
  if (typeof Worker === 'undefined') return solveBotChallenge(challenge);
  try {
    return await solveInWorker(challenge);
  } catch (error) {
    // A worker that cannot start (old browser, blocked script) must not block the purchase:
    // the same work on the main thread only costs a short pause.
    console.warn('bot check: solving on the main thread:', error);
    return solveBotChallenge(challenge);
  }
}

/** A fresh ALTCHA token: a challenge from the API, solved in a worker. */
async function solvedToken(lang: Language): Promise<string> {
  const challenge = await callEndpoint(botChallengeEndpoint, { lang });
  const solution = await solve(challenge);
  if (!solution) throw new BotCheckError('no solution for the challenge');
  return encodeBotSolution(solution);
}

/**
 * How long a token solved ahead is offered: well inside the server's ten minutes for a
 * challenge (BOT_CHALLENGE_TTL_MS), so it is never refused as expired when Buy now sends it.
 */
const SOLVED_AHEAD_MS = 8 * 60 * 1000;

/** The token preloadBotCheck solved while the customer reads the plans, for one Buy now. */
let solvedAhead: { lang: Language; token: Promise<string>; until: number } | null = null;

/**
 * The invisible bot check before a plan is chosen (RULINGS 16): fetches an ALTCHA challenge
 * from the API, solves it in a Web Worker and resolves with the token proceed-review takes; or,
 * with BOT_CHECK=recaptcha, a reCAPTCHA v3 token for the action `login`. A token solved ahead
 * (preloadBotCheck) is taken once, if still fresh; a token is single-use on the server, so any
 * later call solves a new one. Rejects with the service's ApiError when the challenge cannot be
 * fetched, or BotCheckError.
 */
export async function getBotCheckToken(lang: Language): Promise<string> {
  const settings = botCheckSettings();
  if (settings.mode === 'recaptcha') {
    try {
      return await getRecaptchaToken(settings.siteKey);
    } catch (error) {
      throw new BotCheckError(error instanceof Error ? error.message : String(error));
    }
  }
  const ahead = solvedAhead;
  solvedAhead = null;
  if (ahead && ahead.lang === lang && ahead.until > Date.now()) {
    // One that failed (offline a moment, a refused challenge) is replaced by a fresh attempt.
    try {
      return await ahead.token;
    } catch {
      /* solved again below */
    }
  }
  return solvedToken(lang);
}

/**
 * Gets the bot check ready as a plan page opens, so choosing a plan does not wait for it: with
 * ALTCHA, the challenge is fetched and solved ahead once the page is idle (a round trip
 * and a worker's search that Buy now used to wait for, issue 19); with reCAPTCHA, Google's
 * script starts loading (and Google sees the page before the action). A failure here is
 * retried by getBotCheckToken.
 */
export function preloadBotCheck(lang: Language): () => void {
  const settings = botCheckSettings();
  if (settings.mode === 'recaptcha') {
    loadRecaptcha(settings.siteKey).catch(() => {});
    return () => {};
  }
  return whenIdle(() => {
    if (solvedAhead && solvedAhead.lang === lang && solvedAhead.until > Date.now()) return;
    const token = solvedToken(lang);
    token.catch(() => undefined);
    solvedAhead = { lang, token, until: Date.now() + SOLVED_AHEAD_MS };
  });
}
