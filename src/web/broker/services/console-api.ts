import { CONSOLE_API, CSRF_HEADER, type ConsoleMe } from '../../../contract/broker-console';

/**
 * The console's one HTTP client, over fetch: same-origin cookies, JSON both ways, the app's
 * { status, message, data } envelope unwrapped. Every POST to the console API carries the
 * session's CSRF token (read from /broker/api/me) in CSRF_HEADER, except better-auth's own
 * endpoints under /broker/api/auth, which check the Origin instead, and the one-time setup,
 * which comes before any session. A 401 outside sign-in tells
 * the session (console-session.tsx), which sends the reader to the sign-in screen.
 */

/** A refused or failed request: the HTTP status, the server's text, its code and field codes. */
export class ConsoleApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null,
    readonly errors: Record<string, string>,
    /** A refused change's reason, the service's own sentence (data.detail; English). */
    readonly detail: string | null = null,
  ) {
    super(message);
    this.name = 'ConsoleApiError';
  }
}

interface ClientSettings {
  /** Called when a request of a signed-in screen answers 401: the session is over. */
  onSignedOut: () => void;
  /** The UI language, sent as Accept-Language so the server's own sentences come in it where it has them. */
  language: string;
}

const settings: ClientSettings = { onSignedOut: () => undefined, language: 'en' };
let csrfToken: string | null = null;

export function configureConsoleApi(next: Partial<ClientSettings>): void {
  Object.assign(settings, next);
}

/** The token the session answered with (me), kept for the POSTs that follow. */
export function rememberCsrfToken(token: string | null): void {
  csrfToken = token;
}

const isAuthPath = (path: string) => path === '/auth' || path.startsWith('/auth/');
/** Changes made with no session yet, so with no token: sign-in (better-auth) and the one-time setup. */
const needsNoToken = (path: string) => isAuthPath(path) || path === '/setup';
/** Paths whose 401 is an answer for the screen, not the end of a session. */
const answersSignedOut = (path: string) => isAuthPath(path) || path === '/me' || path === '/setup';

const record = (value: unknown): Record<string, unknown> | null => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null);

/** The envelope's data, or the body itself for better-auth's answers, which are not enveloped. */
function payloadOf(body: unknown): unknown {
  const outer = record(body);
  if (outer && typeof outer.status === 'number' && typeof outer.message === 'string' && 'data' in outer) return outer.data;
  return body;
}

function errorOf(status: number, body: unknown): ConsoleApiError {
  const outer = record(body);
  const data = record(payloadOf(body));
  const message = typeof outer?.message === 'string' ? outer.message : '';
  // The app's envelope has data.code; better-auth answers { code, message } at the top.
  const code = typeof data?.code === 'string' ? data.code : typeof outer?.code === 'string' ? outer.code : null;
  const errors = record(data?.errors) ?? {};
  const detail = typeof data?.detail === 'string' && data.detail !== '' ? data.detail : null;
  return new ConsoleApiError(status, message, code, Object.fromEntries(Object.entries(errors).map(([field, value]) => [field, String(value)])), detail);
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The CSRF token of the current session, read from /me when none is kept; null when nobody is signed in. */
async function freshCsrfToken(): Promise<string | null> {
  try {
    const response = await fetch(`${CONSOLE_API}/me`, { credentials: 'same-origin', headers: { accept: 'application/json' } });
    if (!response.ok) return null;
    const me = payloadOf(await readBody(response)) as Partial<ConsoleMe> | null;
    csrfToken = typeof me?.csrf_token === 'string' ? me.csrf_token : null;
    return csrfToken;
  } catch {
    return null;
  }
}

async function send(method: 'GET' | 'POST', path: string, body: unknown, token: string | null, signal?: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', 'accept-language': settings.language };
  if (method === 'POST') headers['content-type'] = 'application/json';
  if (token) headers[CSRF_HEADER] = token;
  return fetch(`${CONSOLE_API}${path}`, {
    method,
    credentials: 'same-origin',
    headers,
    body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
    signal,
  });
}

async function request<T>(method: 'GET' | 'POST', path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const guarded = method === 'POST' && !needsNoToken(path);
  const token = guarded ? (csrfToken ?? (await freshCsrfToken())) : null;
  let response = await send(method, path, body, token, signal);
  // A session that changed since the token was read (signed in again) answers 403: read the
  // token again and send once more. A POST refused for its role is refused again, harmlessly.
  if (guarded && response.status === 403) {
    const renewed = await freshCsrfToken();
    if (renewed && renewed !== token) response = await send(method, path, body, renewed, signal);
  }
  const answer = await readBody(response);
  if (response.ok) return payloadOf(answer) as T;
  if (response.status === 401 && !answersSignedOut(path)) settings.onSignedOut();
  throw errorOf(response.status, answer);
}

type Query = Record<string, string | number | null | undefined>;

/** A path under the console API with the query's non-empty values. */
export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== null && value !== undefined && value !== '') params.set(key, String(value));
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** GET a path under /broker/api ("/orders?page=1"): the envelope's data. */
export const getJson = <T>(path: string, signal?: AbortSignal) => request<T>('GET', path, undefined, signal);

/** POST a JSON body to a path under /broker/api: the envelope's data (or better-auth's answer). */
export const postJson = <T>(path: string, body: unknown = {}) => request<T>('POST', path, body);

/** An order reference, policy number or code as one path segment. */
export const segment = (value: string | number) => encodeURIComponent(String(value));
