// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, listen, TEST_SIGNING_SECRET, type TestApp } from '../../../tests/support/test-app';
import { countriesEndpoint } from '../../contract/reference.endpoints';
import { ApiError, callEndpoint, configureHttpClient } from './http-client';
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
