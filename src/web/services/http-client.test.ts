// @vitest-environment node
// @vitest-environment node
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, listen, TEST_SIGNING_SECRET, type TestApp } from '../../../tests/support/test-app';
import { countriesEndpoint } from '../../contract/reference.endpoints';
import { ApiError, callEndpoint, configureHttpClient, startEarly } from './http-client';
import { fetchCompanyInfo, fetchCountryOptions, fetchTravelConfigs, fetchVat } from './reference.service';

let testApp: TestApp;
let server: Awaited<ReturnType<typeof listen>>;

beforeAll(async () => {
  testApp = await createTestApp();
  server = await listen(testApp.app);
});
afterAll(async () => {
  await server.close();
  await testApp.close();
});

describe('the signed ky client against the real server', () => {
  it('signs requests so the server accepts them, and validates the responses', async () => {
    configureHttpClient({ baseUrl: server.url, signingKey: TEST_SIGNING_SECRET });
    const countries = await fetchCountryOptions('ar', { destination_ids: [422] });
    expect(countries.find((c) => c.value === '422')).toBeUndefined();
    expect(countries.find((c) => c.value === '250')?.label).toBe('فرنسا');
    expect((await fetchTravelConfigs('en')).maxTravellerCount).toBe(8);
    expect(await fetchVat()).toEqual({ vat: 11, stamp_fee: 200 });
    expect((await fetchCompanyInfo('ar')).address).toContain('بيروت');
  });

  it('signs calls started together with distinct nonces, so none is refused as a replay', async () => {
    configureHttpClient({ baseUrl: server.url, signingKey: TEST_SIGNING_SECRET });
    // Six identical calls in one tick: equal bodies, so equal signatures but for the nonce.
    const answers = await Promise.all(Array.from({ length: 6 }, () => fetchCountryOptions('en')));
    expect(answers.every((countries) => countries.length > 100)).toBe(true);
  });

  it('turns a refused signature into an ApiError of kind unauthorized', async () => {
    configureHttpClient({ baseUrl: server.url, signingKey: 'a-different-key-than-the-server' });
    const error = await fetchVat().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'unauthorized', status: 401 });
    expect((error as ApiError).body?.data.errors?.signature).toBe('signature_invalid');
    expect((error as ApiError).message).toMatch(/^API service /);
  });

  it('turns a 422 into an ApiError of kind invalid carrying the field codes', async () => {
    configureHttpClient({ baseUrl: server.url, signingKey: TEST_SIGNING_SECRET });
    const error = await callEndpoint(countriesEndpoint, { lang: 'en', insurance_provider_id: 4242 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'invalid', status: 422 });
    expect((error as ApiError).body?.data.errors).toEqual({ insurance_provider_id: 'not_found' });
  });

  it('reports an unreachable server as a network error', async () => {
    configureHttpClient({ baseUrl: 'http://127.0.0.1:9', signingKey: TEST_SIGNING_SECRET });
    await expect(fetchVat()).rejects.toMatchObject({ kind: 'network', status: null });
  });
});

describe('early answers: a call started before its screen asks (issue 19)', () => {
  /** The client, with every request it sends counted by path. */
  function countingClient() {
    const sent: string[] = [];
    configureHttpClient({
      baseUrl: server.url,
      signingKey: TEST_SIGNING_SECRET,
      fetch: (input, init) => {
        sent.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
        return fetch(input, init);
      },
    });
    return sent;
  }
  afterEach(() => vi.useRealTimers());

  it('the screen\'s call with the same endpoint and payload takes the early answer, and the next call goes to the server', async () => {
    const sent = countingClient();
    startEarly(() => callEndpoint(countriesEndpoint, { lang: 'ar', isDropdown: true }));
    const first = await callEndpoint(countriesEndpoint, { lang: 'ar', isDropdown: true });
    expect(first.countries.some((country) => 'label' in country && country.label === 'فرنسا')).toBe(true);
    expect(sent).toHaveLength(1);
    await callEndpoint(countriesEndpoint, { lang: 'ar', isDropdown: true });
    expect(sent).toHaveLength(2);
  });

  it('a call with another payload does not take it', async () => {
    const sent = countingClient();
    startEarly(() => callEndpoint(countriesEndpoint, { lang: 'ar', isDropdown: true }));
    const english = await callEndpoint(countriesEndpoint, { lang: 'en', isDropdown: true });
    expect(english.countries.some((country) => 'label' in country && country.label === 'France')).toBe(true);
    expect(sent).toHaveLength(2);
    // Claimed here, so it leaves nothing behind for the other tests.
    await callEndpoint(countriesEndpoint, { lang: 'ar', isDropdown: true });
    expect(sent).toHaveLength(2);
  });

  it('an answer no screen claimed within 15 s is dropped, and the call goes to the server (clock mocked)', async () => {
    const sent = countingClient();
    vi.useFakeTimers({ toFake: ['Date'] });
    startEarly(() => callEndpoint(countriesEndpoint, { lang: 'en', isDropdown: true }));
    vi.setSystemTime(Date.now() + 15_001);
    await callEndpoint(countriesEndpoint, { lang: 'en', isDropdown: true });
    expect(sent).toHaveLength(2);
  });

  it('a failed early call is not kept: it fails the one call that takes it, and a retry asks the server again', async () => {
    configureHttpClient({ baseUrl: 'http://127.0.0.1:9', signingKey: TEST_SIGNING_SECRET });
    startEarly(() => callEndpoint(countriesEndpoint, { lang: 'en', isDropdown: false }));
    const sent = countingClient();
    await expect(callEndpoint(countriesEndpoint, { lang: 'en', isDropdown: false })).rejects.toMatchObject({ kind: 'network' });
    expect(sent).toHaveLength(0);
    expect((await callEndpoint(countriesEndpoint, { lang: 'en', isDropdown: false })).countries.length).toBeGreaterThan(100);
    expect(sent).toHaveLength(1);
  });
});
