import ky, { HTTPError, type KyInstance } from 'ky';
import * as v from 'valibot';
import type { Endpoint } from '../../contract/endpoint';
import { errorEnvelopeSchema, type ErrorEnvelope } from '../../contract/envelope';
import { SIGNATURE_HEADERS, signRequest } from '../../contract/signing';

/** Why a call failed: the kind tells the machine what to do; the envelope carries field codes. */
export type ApiErrorKind = 'network' | 'unauthorized' | 'invalid' | 'rejected' | 'server' | 'bad_response';

/** Every failed call becomes an ApiError; nothing is swallowed (DESIGN convention 5). */
export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    readonly path: string,
    readonly status: number | null,
    readonly body: ErrorEnvelope | null,
  ) {
    super(`API service ${path}: ${kind}${status ? ` (${status})` : ''}${body?.message ? `: ${body.message}` : ''}`);
    this.name = 'ApiError';
  }
}

let client: KyInstance | null = null;

let lastNonceMs = 0;
/**
 * The nonce is the time in milliseconds (RULINGS 23), made strictly increasing: calls started
 * in the same millisecond with the same body (the reference lists all send {lang, isDropdown})
 * would otherwise be signed identically and the server would refuse all but one as replays.
 */
function nextNonceMs(): number {
  lastNonceMs = Math.max(Date.now(), lastNonceMs + 1);
  return lastNonceMs;
}

/**
 * Configures the one HTTP client: ky with a hook that signs the exact body sent
 * (RULINGS 23). Called once at start-up with the runtime configuration.
 */
export function configureHttpClient(options: { baseUrl: string; signingKey: string; fetch?: typeof fetch }) {
  client = ky.create({
    prefixUrl: options.baseUrl || globalThis.location?.origin,
    method: 'post',
    timeout: 30_000,
    retry: 0,
    fetch: options.fetch,
    hooks: {
      beforeRequest: [
        async (request) => {
          const body = request.body ? await request.clone().text() : '';
          const parts = await signRequest(options.signingKey, body, nextNonceMs());
          request.headers.set(SIGNATURE_HEADERS.nonce, parts.nonce);
          request.headers.set(SIGNATURE_HEADERS.timestamp, parts.timestamp);
          request.headers.set(SIGNATURE_HEADERS.signature, parts.signature);
        },
      ],
    },
  });
}

function kindOf(status: number): ApiErrorKind {
  if (status === 401) return 'unauthorized';
  if (status === 422 || status === 400) return 'invalid';
  if (status >= 500) return 'server';
  return 'rejected';
}

/** How long an early answer waits for the screen that asks for it before it is dropped. */
const EARLY_ANSWER_MS = 15_000;

/** Calls started before their screen asked (startEarly), by endpoint and exact payload. */
const earlyAnswers = new Map<string, { answer: Promise<unknown>; until: number }>();

const earlyKey = (path: string, payload: unknown) => `${path} ${JSON.stringify(payload)}`;

/** Set while startEarly runs a service call: the callEndpoint it makes is kept as an early answer. */
let recordingEarly = false;

/**
 * Starts now a call that a screen about to render will make (issue 19): a lead's page opened
 * from its link asks for its data while its scripts still load, not after its first render.
 * `call` is the screen's own service function (fetchQuotes, fetchLeadWithPlan…), so the payload
 * is built by the same code: the screen's later callEndpoint with the same endpoint and payload
 * takes this answer, once, and a later call (a retry, a refresh) goes to the server again.
 * Unclaimed, it expires.
 */
export function startEarly(call: () => Promise<unknown>): void {
  recordingEarly = true;
  try {
    // The service reaches callEndpoint synchronously, before its first await.
    call().catch(() => undefined);
  } finally {
    recordingEarly = false;
  }
}

function takeEarlyAnswer(path: string, payload: unknown): Promise<unknown> | null {
  if (earlyAnswers.size === 0) return null;
  const key = earlyKey(path, payload);
  const early = earlyAnswers.get(key);
  earlyAnswers.delete(key);
  return early && early.until > Date.now() ? early.answer : null;
}

/**
 * Calls an endpoint: validates the request payload against the contract before sending and
 * the response after, and maps every failure to an ApiError.
 */
export async function callEndpoint<TReq extends v.GenericSchema, TData extends v.GenericSchema>(
  endpoint: Endpoint<TReq, TData>,
  payload: v.InferInput<TReq>,
): Promise<v.InferOutput<TData>> {
  if (!client) throw new Error('configureHttpClient() must run before any API call');
  if (recordingEarly) {
    recordingEarly = false;
    const answer = callEndpoint(endpoint, payload);
    answer.catch(() => undefined);
    earlyAnswers.set(earlyKey(endpoint.path, payload), { answer, until: Date.now() + EARLY_ANSWER_MS });
    return answer;
  }
  const early = takeEarlyAnswer(endpoint.path, payload);
  if (early) return early as Promise<v.InferOutput<TData>>;
  const path = endpoint.path.replace(/^\//, '');
  let json: unknown;
  try {
    json = await client(path, payload === undefined ? {} : { json: payload }).json();
  } catch (error) {
    if (error instanceof HTTPError) {
      const parsed = v.safeParse(errorEnvelopeSchema, await error.response.json().catch(() => null));
      throw new ApiError(kindOf(error.response.status), endpoint.path, error.response.status, parsed.success ? parsed.output : null);
    }
    throw new ApiError('network', endpoint.path, null, null);
  }
  const parsed = v.safeParse(endpoint.response, json);
  if (!parsed.success) throw new ApiError('bad_response', endpoint.path, 200, null);
  return parsed.output.data as v.InferOutput<TData>;
}
