// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConsoleApiError, configureConsoleApi, getJson, postJson, rememberCsrfToken, withQuery } from './console-api';

/** A fetch that answers each call in turn and records what it was asked. */
function answering(...answers: { status: number; body: unknown }[]) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = vi.fn(async (url: string, init: RequestInit = {}) => {
    calls.push({ url, init });
    const answer = answers.shift() ?? { status: 500, body: null };
    return new Response(JSON.stringify(answer.body), { status: answer.status });
  });
  vi.stubGlobal('fetch', fetch);
  return calls;
}
const envelope = (status: number, data: unknown, message = 'OK') => ({ status, body: { status, message, data } });
const header = (call: { init: RequestInit }, name: string) => (call.init.headers as Record<string, string>)[name];

afterEach(() => {
  vi.unstubAllGlobals();
  rememberCsrfToken(null);
  configureConsoleApi({ onSignedOut: () => undefined, language: 'en' });
});

describe("the console's HTTP client", () => {
  it("answers the envelope's data, same-origin, in the UI's language", async () => {
    const calls = answering(envelope(200, { items: [], total: 0 }));
    configureConsoleApi({ language: 'ar' });
    expect(await getJson('/orders?page=1')).toEqual({ items: [], total: 0 });
    expect(calls[0]!.url).toBe('/broker/api/orders?page=1');
    expect(calls[0]!.init.credentials).toBe('same-origin');
    expect(header(calls[0]!, 'accept-language')).toBe('ar');
  });

  it('reads the CSRF token from /me once and sends it with every console POST', async () => {
    const calls = answering(envelope(200, { csrf_token: 'token-1' }), envelope(200, { done: 'x' }), envelope(200, { done: 'y' }));
    await postJson('/coupons', { code: 'A' });
    await postJson('/agents/1/disable');
    expect(calls.map((call) => call.url)).toEqual(['/broker/api/me', '/broker/api/coupons', '/broker/api/agents/1/disable']);
    expect(header(calls[1]!, 'x-csrf-token')).toBe('token-1');
    expect(header(calls[2]!, 'x-csrf-token')).toBe('token-1');
    expect(calls[1]!.init.body).toBe('{"code":"A"}');
  });

  it("sends no token to better-auth's endpoints, which answer unenveloped", async () => {
    const calls = answering({ status: 200, body: { twoFactorRedirect: true } });
    expect(await postJson('/auth/sign-in/email', { email: 'a@b.c', password: 'p' })).toEqual({ twoFactorRedirect: true });
    expect(calls).toHaveLength(1);
    expect(header(calls[0]!, 'x-csrf-token')).toBeUndefined();
  });

  it('sends the one-time setup, which comes before any session, without asking /me for a token', async () => {
    const calls = answering(envelope(200, { email: 'new@broker.example' }));
    expect(await postJson('/setup', { token: 't', password: 'p' })).toEqual({ email: 'new@broker.example' });
    expect(calls.map((call) => call.url)).toEqual(['/broker/api/setup']);
    expect(header(calls[0]!, 'x-csrf-token')).toBeUndefined();
  });

  it("sends a POST again, once, with the session's new token after a 403", async () => {
    rememberCsrfToken('old');
    const calls = answering(envelope(403, {}, 'forbidden'), envelope(200, { csrf_token: 'new' }), envelope(200, { done: 'ok' }));
    await postJson('/refunds/pay', { merchant_reference: 'R' });
    expect(calls.map((call) => header(call, 'x-csrf-token') ?? null)).toEqual(['old', null, 'new']);
  });

  it('ends the session on a 401 of a screen, not of sign-in, and carries the codes of a refusal', async () => {
    const signedOut = vi.fn();
    configureConsoleApi({ onSignedOut: signedOut });
    answering(envelope(401, {}, 'Sign in first.'), { status: 401, body: { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid' } }, envelope(400, { errors: { value: 'out_of_range' } }, 'Invalid'));
    await expect(getJson('/orders')).rejects.toMatchObject({ status: 401 });
    expect(signedOut).toHaveBeenCalledTimes(1);
    await expect(postJson('/auth/sign-in/email', {})).rejects.toMatchObject({ status: 401, code: 'INVALID_EMAIL_OR_PASSWORD' });
    expect(signedOut).toHaveBeenCalledTimes(1);
    rememberCsrfToken('t');
    const refused = await postJson('/coupons', {}).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConsoleApiError);
    expect(refused).toMatchObject({ status: 400, message: 'Invalid', errors: { value: 'out_of_range' } });
  });

  it('leaves empty values out of a query', () => {
    expect(withQuery('/orders', { page: 1, status: '', search: 'a b', from: null })).toBe('/orders?page=1&search=a+b');
    expect(withQuery('/call-backs', { status: '' })).toBe('/call-backs');
  });
});
