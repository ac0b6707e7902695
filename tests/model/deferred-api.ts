import { waitFor } from '@testing-library/react';

/**
 * The API at the edge of the rendered screens' model tests (issue 20): a `fetch` for the ky
 * client (configureHttpClient) that holds every request until the test answers it, as the live
 * replay's deferred promise actors do (machines/model-tooling/model-replay.ts). The screen's own services,
 * the contract's validation and the ApiError mapping all run; only the server is missing.
 *
 * A path's call outcome (xstate.done.actor.<id> / xstate.error.actor.<id>) becomes an answer to
 * the request the screen made for that call: `answer` with the envelope's data, `fail` with an
 * error envelope and status, or `dropConnection` (fetch rejects, as with no network); `failWith`
 * takes a model's failure sample and does the one it names.
 */

export interface HeldRequest {
  /** The endpoint's path, e.g. /miscellaneous/travel/wiz/compare-quotes. */
  path: string;
  /** The signed JSON body the screen sent. */
  body: unknown;
  resolve: (response: Response) => void;
  reject: (error: unknown) => void;
}

export function deferredApi() {
  const held: HeldRequest[] = [];
  const requests: { path: string; body: unknown }[] = [];

  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const path = new URL(request.url).pathname;
    const text = await request.clone().text();
    const body: unknown = text ? JSON.parse(text) : undefined;
    requests.push({ path, body });
    return new Promise<Response>((resolve, reject) => {
      const entry: HeldRequest = { path, body, resolve, reject };
      held.push(entry);
      request.signal.addEventListener('abort', () => {
        held.splice(held.indexOf(entry), 1);
        reject(request.signal.reason);
      });
    });
  };

  /** The oldest held request to `path`, once the screen has made it. */
  async function take(path: string): Promise<HeldRequest> {
    let found: HeldRequest | undefined;
    await waitFor(() => {
      found = held.find((entry) => entry.path === path);
      if (!found) throw new Error(`no request to ${path} held (held: ${held.map((entry) => entry.path).join(', ') || 'none'})`);
    });
    held.splice(held.indexOf(found!), 1);
    return found!;
  }

  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  return {
    fetch,
    /** Every request made so far, in order (path and body). */
    requests,
    /** Paths of the requests still held. */
    heldPaths: () => held.map((entry) => entry.path),
    /** Answers the request to `path` with 200 and `data` in the envelope; returns what was sent. */
    async answer(path: string, data: unknown): Promise<unknown> {
      const request = await take(path);
      request.resolve(json(200, { status: 200, message: 'OK', data }));
      return request.body;
    },
    /** Answers the request to `path` with an error status and envelope (or a body that is not one). */
    async fail(path: string, status: number, body: unknown): Promise<unknown> {
      const request = await take(path);
      request.resolve(json(status, body));
      return request.body;
    },
    /** The request to `path` never reaches the server: fetch rejects, as ky sees a network failure. */
    async dropConnection(path: string): Promise<unknown> {
      const request = await take(path);
      request.reject(new TypeError('Failed to fetch'));
      return request.body;
    },
    /**
     * Answers the request to `path` as a model's failure sample says: no status is a dropped
     * connection, a status is that status with the sample's envelope. Returns what was sent.
     */
    failWith(path: string, failure: unknown): Promise<unknown> {
      const { status, body } = failure as { status: number | null; body: unknown };
      return status === null ? this.dropConnection(path) : this.fail(path, status, body);
    },
  };
}

export type DeferredApi = ReturnType<typeof deferredApi>;
