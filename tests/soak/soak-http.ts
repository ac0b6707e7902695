import { Worker } from 'node:worker_threads';
import { DEV_SIGNING_SECRET } from '../../src/server/config';
import { signRequest, SIGNATURE_HEADERS } from '../../src/contract/signing';

/**
 * The soak's HTTP side, as a browser and a customer use the server: signed API calls, form posts
 * that do not follow redirects, a latency sample per step, and (crash mode) retries of a call that
 * found no server, the way a customer presses reload.
 */

/** Latencies (ms) by step name. */
export class StepTimes {
  readonly byStep = new Map<string, number[]>();
  add(step: string, ms: number) {
    let list = this.byStep.get(step);
    if (!list) this.byStep.set(step, (list = []));
    list.push(ms);
  }
}

/** A call that failed the journey: which step, and what came back. */
export class JourneyError extends Error {
  constructor(
    readonly step: string,
    readonly detail: string,
  ) {
    super(`${step}: ${detail}`);
  }
}

/** How a client behaves when the server is not there (crash mode) or answers 503. */
export interface RetryPolicy {
  /** Give up after this long without an answer (0: never retry). */
  giveUpAfterMs: number;
}

/**
 * Nonces are the time in ms and the server refuses one seen before, so 200 journeys in one
 * process share one counter that never repeats (at most a few seconds ahead of the clock).
 */
let lastNonce = 0;
const nextNonceMs = () => (lastNonce = Math.max(Date.now(), lastNonce + 1));

/** A signed JSON POST's init (RULINGS 23), a new nonce each time it is built. */
export async function signedInit(text: string): Promise<RequestInit> {
  const parts = await signRequest(DEV_SIGNING_SECRET, text, nextNonceMs());
  return {
    method: 'POST',
    body: text,
    headers: {
      'content-type': 'application/json',
      [SIGNATURE_HEADERS.nonce]: parts.nonce,
      [SIGNATURE_HEADERS.timestamp]: parts.timestamp,
      [SIGNATURE_HEADERS.signature]: parts.signature,
    },
  };
}

/** Whether a failure is "no server there" (refused, reset, closed mid-answer): worth a reload. */
function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const cause = (error as { cause?: { code?: string } }).cause;
  return error.name === 'TypeError' || error.name === 'AbortError' || error.name === 'TimeoutError' || Boolean(cause?.code);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An answer read in full. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** One simulated customer's connection: its base URL, its address, and the shared step timer. */
export class CustomerHttp {
  constructor(
    private base: () => string,
    private readonly address: string,
    readonly times: StepTimes,
    private readonly retry: RetryPolicy,
    /** Told every attempt's status, retried ones included (null: no answer), as the outage soak counts what customers saw. */
    private readonly observe: (status: number | null) => void = () => {},
  ) {}

  /** Switches to another instance (the crash test's survivor) for the next calls. */
  rebase(base: () => string) {
    this.base = base;
  }

  /**
   * An absolute URL the server wrote (return_url, the gateway's page) as a path on this customer's
   * instance: request() puts the instance in front at each attempt, so a retry after an instance
   * died for good (soak journeys --kill-one) goes to a live one, as behind a load balancer.
   */
  local(url: string): string {
    const parsed = new URL(url, this.base());
    return `${parsed.pathname}${parsed.search}`;
  }

  /**
   * One request, timed under `step`, its body read in full. Connection failures (before or while
   * the answer arrives) and 503 are retried while the retry policy allows (each attempt rebuilt
   * by `init`, so a signed call gets a fresh nonce).
   */
  async request(step: string, path: string, init: () => Promise<RequestInit> | RequestInit): Promise<Answer> {
    const started = Date.now();
    let delay = 200;
    for (;;) {
      const attemptStarted = performance.now();
      try {
        const base = await init();
        const res = await fetch(path.startsWith('http') ? path : `${this.base()}${path}`, {
          ...base,
          redirect: 'manual',
          headers: { 'x-forwarded-for': this.address, ...(base.headers as Record<string, string>) },
          signal: AbortSignal.timeout(60_000),
        });
        // Read here: a server killed mid-answer fails the read ("terminated"), which is retried like a refused connection.
        const text = await res.text();
        this.observe(res.status);
        if (res.status !== 503 || Date.now() - started >= this.retry.giveUpAfterMs) {
          this.times.add(step, performance.now() - attemptStarted);
          return { status: res.status, headers: res.headers, text };
        }
      } catch (error) {
        this.observe(null);
        if (!isConnectionFailure(error) || Date.now() - started >= this.retry.giveUpAfterMs) {
          throw new JourneyError(step, `no answer (${error instanceof Error ? `${error.name}: ${error.message}` : String(error)})`);
        }
      }
      await sleep(delay);
      delay = Math.min(delay * 2, 2_000);
    }
  }

  /** A signed JSON POST of the API; the parsed envelope, or a JourneyError unless the status is expected. */
  async api<T = Record<string, unknown>>(step: string, path: string, body: unknown, expect: number[] = [200]): Promise<{ status: number; data: T; json: unknown }> {
    const text = JSON.stringify(body);
    const res = await this.request(step, path, () => signedInit(text));
    const raw = res.text;
    let json: unknown = null;
    try {
      json = JSON.parse(raw);
    } catch {
      // kept as null: reported below with the status
    }
    if (!expect.includes(res.status)) {
      const errors = (json as { data?: { errors?: unknown } } | null)?.data?.errors;
      throw new JourneyError(step, `HTTP ${res.status}${errors ? ` ${JSON.stringify(errors)}` : json ? '' : ` ${raw.slice(0, 120)}`}`);
    }
    return { status: res.status, data: ((json as { data?: T } | null)?.data ?? {}) as T, json };
  }

  /** A urlencoded form post as the browser sends it (no redirect followed). */
  form(step: string, url: string, fields: Record<string, string>): Promise<Answer> {
    return this.request(step, this.local(url), () => ({
      method: 'POST',
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }));
  }

  /** A GET of a page; its status and text. */
  async page(step: string, url: string): Promise<{ status: number; html: string }> {
    const res = await this.request(step, this.local(url), () => ({ method: 'GET' }));
    return { status: res.status, html: res.text };
  }
}

/** Fails the journey unless the answer has one of these statuses (its body is not needed). */
export function expectStatus(step: string, res: Answer, statuses: number[]) {
  if (!statuses.includes(res.status)) throw new JourneyError(step, `HTTP ${res.status}, expected ${statuses.join(' or ')}`);
}

/* ------------------------------------------------------------------------------------------- */
/* The bot check                                                                                */
/* ------------------------------------------------------------------------------------------- */

export interface AltchaChallenge {
  algorithm: string;
  challenge: string;
  salt: string;
  signature: string;
  maxnumber?: number;
}

// The browser's Web Worker brute force, with Node's synchronous SHA-256, in a thread of its own:
// 200 journeys solving on the main thread would stall every other journey's timer.
const SOLVER = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
parentPort.on('message', ({ id, challenge }) => {
  const max = challenge.maxnumber ?? 1000000;
  let found = -1;
  for (let n = 0; n <= max; n += 1) {
    if (createHash('sha256').update(challenge.salt + n).digest('hex') === challenge.challenge) { found = n; break; }
  }
  parentPort.postMessage({ id, found });
});`;

/** A solver thread that turns challenges into bot tokens; unref'd so it never keeps the process alive. */
export class BotSolver {
  private readonly worker = new Worker(SOLVER, { eval: true });
  private readonly waiting = new Map<number, (found: number) => void>();
  private sequence = 0;

  constructor() {
    this.worker.unref();
    this.worker.on('message', ({ id, found }: { id: number; found: number }) => {
      this.waiting.get(id)?.(found);
      this.waiting.delete(id);
    });
  }

  async token(challenge: AltchaChallenge): Promise<string> {
    const id = (this.sequence += 1);
    const found = await new Promise<number>((resolve) => {
      this.waiting.set(id, resolve);
      this.worker.postMessage({ id, challenge });
    });
    if (found < 0) throw new JourneyError('bot-solve', 'challenge not solvable');
    const payload = { algorithm: challenge.algorithm, challenge: challenge.challenge, number: found, salt: challenge.salt, signature: challenge.signature };
    return Buffer.from(JSON.stringify(payload)).toString('base64');
  }

  close() {
    return this.worker.terminate();
  }
}
