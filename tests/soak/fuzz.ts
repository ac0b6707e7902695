import { createHash } from 'node:crypto';
import fc from 'fast-check';
import * as v from 'valibot';
import * as checkout from '../../src/contract/checkout.endpoints';
import { todayIso } from '../../src/contract/dates';
import type { Endpoint } from '../../src/contract/endpoint';
import { errorEnvelopeSchema } from '../../src/contract/envelope';
import * as lead from '../../src/contract/lead.endpoints';
import * as leadStatus from '../../src/contract/lead-status.endpoints';
import * as payfort from '../../src/contract/payfort.endpoints';
import * as payment from '../../src/contract/payment.endpoints';
import * as policyPage from '../../src/contract/policy-page.endpoints';
import * as quote from '../../src/contract/quote.endpoints';
import * as reference from '../../src/contract/reference.endpoints';
import * as review from '../../src/contract/review.endpoints';
import { computeSignature, SIGNATURE_HEADERS } from '../../src/contract/signing';
import { DEV_SIGNING_SECRET } from '../../src/server/config';
import { textTable } from '../../src/server/text-table';
import { caseText, fuzzCases, type FuzzCase, type FuzzPool } from './fuzz-arbitraries';

/**
 * The API fuzz (issue 18 item 6): for every endpoint of the contract, `perEndpoint` bodies drawn
 * from its valibot request schema (fuzz-arbitraries.ts), each correctly signed so it reaches the
 * endpoint's handler. The API must never answer 5xx; every 4xx is the error envelope, with field
 * codes on a 400 or 422; every 2xx is the contract's answer. fast-check shrinks a failing body to
 * a small one and the seed replays the run. It runs in-process (`app`, Hono's app.request) for
 * the tests, or against a running server (`baseUrl`) for `npm run soak -- fuzz`.
 */

type AnyEndpoint = Endpoint<v.GenericSchema, v.GenericSchema>;

/** The smallest part of an app the fuzz needs: Hono's in-process request. */
export interface InProcessApp {
  request(path: string, init: RequestInit): Response | Promise<Response>;
}

export interface FuzzOptions {
  /** A running server, e.g. http://127.0.0.1:8080 (or `app` for in-process requests). */
  baseUrl?: string;
  app?: InProcessApp;
  /** Bodies per endpoint (shrinking a failure sends more). */
  perEndpoint: number;
  /** fast-check's seed; default: the clock. Printed so a run can be replayed. */
  seed?: number;
  log?: (line: string) => void;
  /** The API signing key (default: the development key, which the server uses unless SIGNING_SECRET is set). */
  signingSecret?: string;
  /** The server's clock, for signatures and dates (default Date.now). */
  now?: () => number;
  /**
   * Sends each request from a new address in X-Forwarded-For, so the per-address rate limits do
   * not turn the run into 429s; the server reads it only with TRUST_PROXY=true.
   */
  spreadAddresses?: boolean;
  /** Only endpoints whose path contains one of these. */
  only?: string[];
  /** Leads made first, whose ids valid bodies use (default: one per 100 bodies, 6 to 60), so a long run spreads over per-lead limits. */
  leads?: number;
  /** Endpoints fuzzed at once (default 2). */
  concurrency?: number;
  /** Called before each request (the tests move their app's clock here so rate-limit windows pass). */
  beforeRequest?: () => void;
}

export interface FuzzEndpointSummary {
  path: string;
  sent: number;
  /** Answers by HTTP status. */
  statuses: Record<number, number>;
  fiveXx: number;
  /** Bodies by kind: valid, one value mutated, hostile. */
  kinds: Record<FuzzCase['kind'], number>;
  ms: number;
}

export interface FuzzFailure {
  path: string;
  /** Why the answer is wrong: a 5xx, a refusal outside the envelope, an answer outside the contract. */
  reason: string;
  /** The shrunk body that fails (cut at 2,000 characters; `bodyLength` is its full length). */
  body: string;
  bodyLength: number;
  status: number;
  /** The start of the answer. */
  answer: string;
  /** fast-check's seed for this endpoint (endpointSeedOf(run seed, path)); with counterexamplePath it replays the failure. */
  seed: number;
  counterexamplePath: string | undefined;
}

export interface FuzzSummary {
  seed: number;
  perEndpoint: number;
  endpoints: FuzzEndpointSummary[];
  failures: FuzzFailure[];
  ms: number;
}

/** Every endpoint the contract declares, found by shape so a new one is fuzzed without editing this file. */
export function contractEndpoints(): AnyEndpoint[] {
  const found = [checkout, lead, leadStatus, payfort, payment, policyPage, quote, reference, review].flatMap((module) =>
    (Object.values(module) as unknown[]).filter(
      (value): value is AnyEndpoint => typeof value === 'object' && value !== null && 'path' in value && 'request' in value && 'response' in value,
    ),
  );
  return [...new Map(found.map((endpoint) => [endpoint.path, endpoint])).values()];
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** Sends signed POSTs in-process or over HTTP, each with a nonce of its own. */
function createSender(options: FuzzOptions) {
  const secret = options.signingSecret ?? DEV_SIGNING_SECRET;
  const now = options.now ?? Date.now;
  // Nonces only need to be unique per body; counting up from the clock keeps them numeric and fresh.
  let nonce = now();
  let address = 0;
  return async (path: string, text: string): Promise<Answer> => {
    options.beforeRequest?.();
    const nowMs = now();
    nonce = Math.max(nonce + 1, nowMs);
    const timestamp = String(Math.floor(nowMs / 1000));
    // The server signs what it reads: the body decoded as UTF-8, a leading byte-order mark dropped.
    const signed = text.replace(/^\uFEFF/, '');
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      [SIGNATURE_HEADERS.nonce]: String(nonce),
      [SIGNATURE_HEADERS.timestamp]: timestamp,
      [SIGNATURE_HEADERS.signature]: await computeSignature(secret, String(nonce), timestamp, signed),
    };
    if (options.spreadAddresses) {
      address += 1;
      headers['x-forwarded-for'] = `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
    }
    const init: RequestInit = { method: 'POST', body: text === '' ? undefined : text, headers };
    const res = options.app
      ? await options.app.request(path, init)
      : await fetch(`${options.baseUrl}${path}`, { ...init, signal: AbortSignal.timeout(30_000) });
    return { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text() };
  };
}

/** What is wrong with an answer, or null when it is right. */
export function judgeAnswer(endpoint: AnyEndpoint, answer: Answer): string | null {
  if (answer.status >= 500) return `${answer.status} answer`;
  if (answer.status === 401) return 'a correctly signed request was refused as unsigned (401)';
  let json: unknown;
  try {
    json = JSON.parse(answer.text);
  } catch {
    return `a ${answer.status} answer that is not JSON`;
  }
  if (!answer.contentType.startsWith('application/json')) return `a ${answer.status} answer with content type ${answer.contentType || 'none'}`;
  if (answer.status >= 400) {
    const parsed = v.safeParse(errorEnvelopeSchema, json);
    if (!parsed.success) return `a ${answer.status} refusal outside the error envelope`;
    if (parsed.output.status !== answer.status) return `a ${answer.status} refusal whose envelope says ${parsed.output.status}`;
    if (parsed.output.message.trim() === '') return `a ${answer.status} refusal without a message`;
    // Read from the JSON itself: valibot's record drops a `__proto__` key, a field code all the same.
    const raw = (json as { data?: { errors?: unknown } }).data?.errors;
    const codes = raw !== null && typeof raw === 'object' ? Object.entries(raw as Record<string, unknown>) : [];
    if ((answer.status === 400 || answer.status === 422) && codes.length === 0) return `a ${answer.status} refusal without field codes`;
    if (codes.some(([field, code]) => field === '' || typeof code !== 'string' || code.trim() === '')) return `a ${answer.status} refusal with an empty field code`;
    return null;
  }
  const parsed = v.safeParse(endpoint.response, json);
  if (!parsed.success) return `a ${answer.status} answer outside the contract at ${v.getDotPath(parsed.issues[0]) ?? '(root)'}`;
  return null;
}

/** Solves an ALTCHA challenge (SHA-256 of salt + number) as the browser's worker does. */
function solveChallenge(challenge: { algorithm: string; challenge: string; salt: string; signature: string; maxnumber?: number }): string {
  for (let number = 0; number <= (challenge.maxnumber ?? 1_000_000); number += 1) {
    if (createHash('sha256').update(challenge.salt + number).digest('hex') === challenge.challenge) {
      const { algorithm, salt, signature } = challenge;
      return Buffer.from(JSON.stringify({ algorithm, challenge: challenge.challenge, number, salt, signature })).toString('base64');
    }
  }
  throw new Error('bot challenge not solvable');
}

/**
 * Real ids for valid bodies: a few leads through the real API (each quoted, and every other one
 * with a chosen plan, so coupon and checkout bodies reach the code behind those checks).
 */
async function createPool(send: (path: string, text: string) => Promise<Answer>, now: () => number, seed: number, leads: number): Promise<FuzzPool> {
  const today = todayIso(now());
  const day = (offset: number) => new Date(Date.parse(`${today}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
  const pool: FuzzPool = { uuids: [], sessionIds: [], deviceUuids: [], leadIds: [], quoteIds: [], merchantReferences: [], today, examples: {} };
  const call = async <T extends AnyEndpoint>(endpoint: T, body: unknown): Promise<v.InferOutput<T['data']> | null> => {
    const answer = await send(endpoint.path, JSON.stringify(body));
    if (answer.status !== 200) return null;
    (pool.examples[endpoint.path] ??= []).push(body);
    const parsed = v.safeParse(endpoint.response, JSON.parse(answer.text));
    return parsed.success ? (parsed.output.data as v.InferOutput<T['data']>) : null;
  };
  const tag = `${seed.toString(36)}${now().toString(36)}`.slice(-10);
  for (let i = 0; i < leads; i += 1) {
    const saved = await call(lead.addCustomerLeadEndpoint, {
      name: 'Rania Haddad',
      email: `fuzz-${tag}-${i}@example.com`,
      phone_country_code: '+961',
      phone_number: `7${String((seed + i * 7919 + now()) % 10_000_000).padStart(7, '0')}`,
      inbound_outbound: true,
      trip_type: 1,
      start_date: day(20),
      end_date: day(29),
      destination_id: [250],
      source_id: null,
      no_of_traveller: 1,
      is_family: false,
      travellers_info: [{ dob: '1990-05-20' }],
      lang: i % 2 === 0 ? 'en' : 'ar',
    });
    if (!saved) continue;
    pool.uuids.push(saved.uuid);
    pool.deviceUuids.push(saved.device_uuid);
    if (saved.session_id) pool.sessionIds.push(saved.session_id);
    const quoted = await call(quote.compareQuotesEndpoint, { uuid: saved.uuid, lang: 'en' });
    if (!quoted) continue;
    pool.leadIds.push(quoted.lead.id);
    await call(quote.latestLeadByIdEndpoint, { lead_id: quoted.lead.id, session_id: saved.session_id, lang: 'en' });
    const quoteId = quoted.quotes[0]?.id;
    if (quoteId === undefined) continue;
    pool.quoteIds.push(quoteId);
    if (i % 2 === 1) continue;
    const challenge = await call(quote.botChallengeEndpoint, { lang: 'en' });
    if (!challenge) continue;
    const chosen = await call(quote.proceedReviewEndpoint, { uuid: saved.uuid, policy_id: quoteId, addons: [], bot_token: solveChallenge(challenge) });
    if (!chosen) continue;
    await call(checkout.couponValidateEndpoint, { uuid: saved.uuid, promo_code: i % 4 === 0 ? 'SAFAR10' : 'SAVE25', language: 'en' });
    await call(quote.sendEmailByPageEndpoint, { uuid: saved.uuid, pagename: 'compare-quotes', link: `https://safar.example/compare-quotes?uuid=${saved.uuid}` });
  }
  // Reads that need only what was made above, so their examples are known good too.
  for (const [index, uuid] of pool.uuids.entries()) {
    await call(lead.personalDetailsEndpoint, { uuid, session_id: pool.sessionIds[index] ?? null, lang: 'ar' });
    await call(quote.latestLeadByUuidEndpoint, { uuid, lang: 'en' });
  }
  for (const device of pool.deviceUuids.slice(0, 2)) await call(lead.latestLeadsByDeviceEndpoint, { device_uuid: device });
  await call(lead.agentCheckEndpoint, { agent_id: 101 });
  await call(quote.requestCallBackEndpoint, { name: 'Karim Khoury', email: `fuzz-${tag}@example.com`, phone_country_code: '+961', phone_number: '71555455' });
  return pool;
}

/** The seed of one endpoint's bodies: the run's seed mixed with the path (FNV-1a). */
export function endpointSeedOf(seed: number, path: string): number {
  let hash = 2_166_136_261;
  for (const char of path) hash = Math.imul(hash ^ char.charCodeAt(0), 16_777_619);
  return (seed ^ hash) >>> 0;
}

const clip = (text: string, length: number) => (text.length > length ? `${text.slice(0, length)}… (${text.length} characters)` : text);

/** Runs the fuzz and returns its figures; it throws only when the API cannot be reached at all. */
export async function runFuzz(options: FuzzOptions): Promise<FuzzSummary> {
  if (!options.app && !options.baseUrl) throw new Error('runFuzz needs an app or a baseUrl');
  // Seven digits at most: short enough to type back into `npm run soak -- fuzz --seed N`.
  const seed = options.seed ?? Date.now() % 10_000_000;
  const log = options.log ?? (() => {});
  const now = options.now ?? Date.now;
  const started = performance.now();
  const send = createSender(options);
  log(`fuzz: seed ${seed}, ${options.perEndpoint} bodies per endpoint${options.baseUrl ? ` against ${options.baseUrl}` : ' in-process'}`);
  const pool = await createPool(send, now, seed, options.leads ?? Math.min(60, Math.max(6, Math.ceil(options.perEndpoint / 100))));
  log(`fuzz: ${pool.uuids.length} leads, ${pool.quoteIds.length} quotes to draw real ids from`);

  const endpoints = contractEndpoints().filter((endpoint) => !options.only || options.only.some((part) => endpoint.path.includes(part)));
  const summaries: FuzzEndpointSummary[] = [];
  const failures: FuzzFailure[] = [];

  const fuzzOne = async (endpoint: AnyEndpoint) => {
    const summary: FuzzEndpointSummary = { path: endpoint.path, sent: 0, statuses: {}, fiveXx: 0, kinds: { valid: 0, mutated: 0, hostile: 0 }, ms: 0 };
    const begun = performance.now();
    let last: Answer = { status: 0, contentType: '', text: '' };
    const property = fc.asyncProperty(fuzzCases(endpoint.request, pool, endpoint.path), async (fuzzCase) => {
      const text = caseText(fuzzCase);
      try {
        last = await send(endpoint.path, text);
      } catch (error) {
        last = { status: 0, contentType: '', text: String(error) };
        throw new Error(`no answer: ${String(error)}`);
      } finally {
        summary.sent += 1;
        summary.kinds[fuzzCase.kind] += 1;
      }
      summary.statuses[last.status] = (summary.statuses[last.status] ?? 0) + 1;
      if (last.status >= 500) summary.fiveXx += 1;
      const wrong = judgeAnswer(endpoint, last);
      if (wrong) throw new Error(wrong);
    });
    // Each endpoint its own stream of bodies, all replayed by the run's one seed.
    const endpointSeed = endpointSeedOf(seed, endpoint.path);
    const details = await fc.check(property, { seed: endpointSeed, numRuns: options.perEndpoint });
    summary.ms = Math.round(performance.now() - begun);
    summaries.push(summary);
    if (details.failed && details.counterexample) {
      // The last request sent was the smallest failing body fast-check found; send it again for its answer.
      const body = caseText(details.counterexample[0]);
      const answer = await send(endpoint.path, body).catch((error: unknown) => ({ status: 0, contentType: '', text: String(error) }));
      const failure: FuzzFailure = {
        path: endpoint.path,
        reason: details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance),
        body: clip(body, 2_000),
        bodyLength: body.length,
        status: answer.status || last.status,
        answer: clip(answer.text, 500),
        seed: endpointSeed,
        counterexamplePath: details.counterexamplePath ?? undefined,
      };
      failures.push(failure);
      log(`fuzz: FAILED ${endpoint.path}: ${failure.reason}\n  shrunk body: ${failure.body}\n  answer: ${failure.status} ${failure.answer}`);
    }
    log(`fuzz: ${endpoint.path}: ${summary.sent} sent, ${summary.fiveXx} 5xx, ${summary.ms} ms`);
  };

  const queue = [...endpoints];
  const workers = Array.from({ length: Math.max(1, options.concurrency ?? 2) }, async () => {
    for (let endpoint = queue.shift(); endpoint; endpoint = queue.shift()) await fuzzOne(endpoint);
  });
  await Promise.all(workers);
  summaries.sort((a, b) => a.path.localeCompare(b.path));
  return { seed, perEndpoint: options.perEndpoint, endpoints: summaries, failures, ms: Math.round(performance.now() - started) };
}

/** The summary as a text table: one row per endpoint, then the totals, the seed and each failure. */
export function fuzzTable(summary: FuzzSummary): string {
  const statuses = [...new Set(summary.endpoints.flatMap((row) => Object.keys(row.statuses).map(Number)))].sort((a, b) => a - b);
  const header = ['endpoint', 'sent', 'valid', 'mutated', 'hostile', ...statuses.map(String), '5xx'];
  const rows = summary.endpoints.map((row) => [
    row.path.replace('/miscellaneous/travel/', ''),
    String(row.sent),
    String(row.kinds.valid),
    String(row.kinds.mutated),
    String(row.kinds.hostile),
    ...statuses.map((status) => String(row.statuses[status] ?? 0)),
    String(row.fiveXx),
  ]);
  const total = (pick: (row: FuzzEndpointSummary) => number) => String(summary.endpoints.reduce((sum, row) => sum + pick(row), 0));
  rows.push([
    'all',
    total((row) => row.sent),
    total((row) => row.kinds.valid),
    total((row) => row.kinds.mutated),
    total((row) => row.kinds.hostile),
    ...statuses.map((status) => total((row) => row.statuses[status] ?? 0)),
    total((row) => row.fiveXx),
  ]);
  const lines = [textTable(header, rows)];
  const fiveXx = Number(total((row) => row.fiveXx));
  lines.push('', `seed ${summary.seed}; ${summary.perEndpoint} bodies per endpoint; 5xx ${fiveXx} (goal 0); wrong answers ${summary.failures.length} (goal 0); ${(summary.ms / 1000).toFixed(1)} s`);
  for (const failure of summary.failures) {
    lines.push(`FAILED ${failure.path}: ${failure.reason}`, `  shrunk body (${failure.bodyLength} characters): ${failure.body}`, `  answer ${failure.status}: ${failure.answer}`);
  }
  return lines.join('\n');
}
