// @vitest-environment node
// @vitest-environment node
import { createChallenge, verifySolution } from 'altcha-lib/v1';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { botChallengeEndpoint } from '../../contract/quote.endpoints';
import { BotCheckError, getBotCheckToken } from './bot-check.service';
import { encodeBotSolution, solveBotChallenge, type BotChallenge, type BotSolution } from './bot-check.solver';
import { configureHttpClient } from './http-client';

const HMAC_KEY = 'bot-check-test-key';

function decode(token: string): BotSolution {
  return JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as BotSolution;
}

/** The API edge replaced: bot-challenge answers `challenge` in the envelope, and the request is recorded. */
function serveChallenge(challenge: BotChallenge) {
  const requests: { path: string; body: unknown }[] = [];
  const fetchStub: typeof fetch = async (input) => {
    const request = input as Request;
    requests.push({ path: new URL(request.url).pathname, body: await request.json() });
    return new Response(JSON.stringify({ status: 200, message: 'ok', data: challenge }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  configureHttpClient({ baseUrl: 'http://bot-check.test', signingKey: 'test', fetch: fetchStub });
  return requests;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('solveBotChallenge (ALTCHA v1 proof of work)', () => {
  it('finds the secret number of a challenge made by altcha-lib, and the payload verifies', async () => {
    const challenge = await createChallenge({ hmacKey: HMAC_KEY, maxnumber: 5000, number: 4321 });
    const solution = await solveBotChallenge(challenge);
    expect(solution?.number).toBe(4321);
    expect(solution).toMatchObject({ algorithm: 'SHA-256', challenge: challenge.challenge, salt: challenge.salt, signature: challenge.signature });
    expect(await verifySolution(encodeBotSolution(solution!), HMAC_KEY)).toBe(true);
  });

  it.each([0, 1, 9, 10, 999, 1000, 5000])('finds %i, whatever its number of digits, up to maxnumber itself', async (number) => {
    const challenge = await createChallenge({ hmacKey: HMAC_KEY, maxnumber: 5000, number });
    expect((await solveBotChallenge(challenge))?.number).toBe(number);
  });

  it('gives null when no number up to maxnumber answers the challenge', async () => {
    const challenge = await createChallenge({ hmacKey: HMAC_KEY, maxnumber: 5000, number: 4321 });
    expect(await solveBotChallenge({ ...challenge, maxnumber: 100 })).toBeNull();
  });

  it('gives null for a challenge in another algorithm than the SHA-256 the server issues', async () => {
    const challenge = await createChallenge({ hmacKey: HMAC_KEY, algorithm: 'SHA-1', maxnumber: 1000, number: 17 });
    expect(await solveBotChallenge(challenge)).toBeNull();
  });

  it('finds a number behind a salt longer than one block of the hash', async () => {
    const challenge = await createChallenge({ hmacKey: HMAC_KEY, maxnumber: 1000, number: 777, saltLength: 90 });
    expect((await solveBotChallenge(challenge))?.number).toBe(777);
  });

  it('is refused by verifySolution under another key (the signature is the server’s)', async () => {
    const challenge = await createChallenge({ hmacKey: HMAC_KEY, maxnumber: 1000, number: 17 });
    const solution = await solveBotChallenge(challenge);
    expect(await verifySolution(encodeBotSolution(solution!), 'another-key')).toBe(false);
  });
});

describe('getBotCheckToken (bot-challenge answered by a stubbed API)', () => {
  it('fetches a challenge in the asked language and resolves with a token altcha-lib verifies', async () => {
    const challenge = await createChallenge({ hmacKey: HMAC_KEY, maxnumber: 3000, expires: new Date(Date.now() + 60_000) });
    const requests = serveChallenge(challenge);
    const token = await getBotCheckToken('ar');
    expect(requests).toEqual([{ path: botChallengeEndpoint.path, body: { lang: 'ar' } }]);
    expect(await verifySolution(token, HMAC_KEY)).toBe(true);
    expect(Object.keys(decode(token)).sort()).toEqual(['algorithm', 'challenge', 'number', 'salt', 'signature', 'took']);
  });

  it('solves in a Web Worker built from the worker module when Worker exists', async () => {
    const challenge = await createChallenge({ hmacKey: HMAC_KEY, maxnumber: 2000, number: 1999 });
    serveChallenge(challenge);
    const created: { url: string; options: WorkerOptions | undefined; terminated: boolean }[] = [];
    // A stand-in Worker: runs the same solver, answering through a message event as a worker does.
    class FakeWorker extends EventTarget {
      private readonly record: (typeof created)[number];
      constructor(url: URL, options?: WorkerOptions) {
        super();
        this.record = { url: String(url), options, terminated: false };
        created.push(this.record);
      }
      postMessage(message: BotChallenge) {
        void solveBotChallenge(message).then((solution) => this.dispatchEvent(new MessageEvent('message', { data: solution })));
      }
      terminate() {
        this.record.terminated = true;
      }
    }
    vi.stubGlobal('Worker', FakeWorker);
    const token = await getBotCheckToken('en');
    expect(decode(token).number).toBe(1999);
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ options: { type: 'module' }, terminated: true });
    expect(created[0]!.url).toMatch(/bot-check\.worker\.ts$/);
  });

  it('solves on the main thread when the worker fails to start', async () => {
    const challenge = await createChallenge({ hmacKey: HMAC_KEY, maxnumber: 1000, number: 500 });
    serveChallenge(challenge);
    class BrokenWorker extends EventTarget {
      postMessage() {
        queueMicrotask(() => this.dispatchEvent(Object.assign(new Event('error'), { message: 'blocked by CSP' })));
      }
      terminate() {}
    }
    vi.stubGlobal('Worker', BrokenWorker);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(decode(await getBotCheckToken('en')).number).toBe(500);
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });

  it('rejects with BotCheckError when the challenge has no answer', async () => {
    const challenge = await createChallenge({ hmacKey: HMAC_KEY, maxnumber: 5000, number: 4999 });
    serveChallenge({ ...challenge, maxnumber: 10 });
    await expect(getBotCheckToken('en')).rejects.toBeInstanceOf(BotCheckError);
  });
});
