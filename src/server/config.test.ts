import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  DEV_ALTCHA_HMAC_KEY,
  DEV_APS_ACCESS_CODE,
  DEV_APS_MERCHANT_IDENTIFIER,
  DEV_APS_REQUEST_PHRASE,
  DEV_APS_RESPONSE_PHRASE,
  DEV_SIGNING_SECRET,
  developmentSecretWarnings,
  parseConfig,
  secretsAtDevelopmentDefault,
} from './config';

describe('parseConfig defaults', () => {
  it('runs on an empty environment with the documented defaults', () => {
    expect(parseConfig({})).toEqual({
      port: 8080,
      host: '0.0.0.0',
      dataDir: path.resolve('./data'),
      databaseUrl: '',
      signingSecret: DEV_SIGNING_SECRET,
      usingDevSecret: true,
      publicUrl: 'http://localhost:8080',
      mainSiteUrl: 'https://www.safar.example',
      apiBaseUrl: '',
      logRequests: true,
      insurerApiUrl: 'http://127.0.0.1:8080/insurer-sandbox',
      insurerTimeoutMs: 3000,
      altchaHmacKey: DEV_ALTCHA_HMAC_KEY,
      smtpUrl: '',
      mailFrom: 'Safar <care@safar.example>',
      outboxDir: path.resolve('./data/outbox'),
      trustProxy: false,
      apsAccessCode: DEV_APS_ACCESS_CODE,
      apsMerchantIdentifier: DEV_APS_MERCHANT_IDENTIFIER,
      apsRequestPhrase: DEV_APS_REQUEST_PHRASE,
      apsResponsePhrase: DEV_APS_RESPONSE_PHRASE,
      apsShaType: 'sha256',
      apsGatewayUrl: 'http://localhost:8080/sandbox/aps/paymentPage',
      apsSandbox: true,
    });
  });

  it('posts to the embedded APS sandbox under PUBLIC_URL unless APS_GATEWAY_URL names a real gateway', () => {
    expect(parseConfig({ PORT: '3000' })).toMatchObject({ apsGatewayUrl: 'http://localhost:3000/sandbox/aps/paymentPage', apsSandbox: true });
    expect(parseConfig({ PUBLIC_URL: 'http://safar.local:8080/' })).toMatchObject({
      apsGatewayUrl: 'http://safar.local:8080/sandbox/aps/paymentPage',
      apsSandbox: true,
    });
    expect(parseConfig({ APS_GATEWAY_URL: '' }).apsSandbox).toBe(true);
    expect(parseConfig({ APS_GATEWAY_URL: 'https://sbcheckout.payfort.com/FortAPI/paymentPage' })).toMatchObject({
      apsGatewayUrl: 'https://sbcheckout.payfort.com/FortAPI/paymentPage',
      apsSandbox: false,
    });
  });

  it('takes the APS credentials, phrases and SHA type (SHA-256 by default, SHA-512 allowed)', () => {
    expect(
      parseConfig({
        APS_ACCESS_CODE: 'zx0IPmPy5jp1vAz8Kpg7',
        APS_MERCHANT_IDENTIFIER: 'CycHZxVj',
        APS_REQUEST_PHRASE: 'a-real-request-phrase',
        APS_RESPONSE_PHRASE: 'a-real-response-phrase',
        APS_SHA_TYPE: 'SHA-512',
      }),
    ).toMatchObject({
      apsAccessCode: 'zx0IPmPy5jp1vAz8Kpg7',
      apsMerchantIdentifier: 'CycHZxVj',
      apsRequestPhrase: 'a-real-request-phrase',
      apsResponsePhrase: 'a-real-response-phrase',
      apsShaType: 'sha512',
    });
    expect(parseConfig({ APS_SHA_TYPE: 'SHA-256' }).apsShaType).toBe('sha256');
  });

  it('puts the insurer sandbox on PORT and the outbox under DATA_DIR unless told otherwise', () => {
    expect(parseConfig({ PORT: '3000', DATA_DIR: '/srv/safar' })).toMatchObject({
      insurerApiUrl: 'http://127.0.0.1:3000/insurer-sandbox',
      outboxDir: '/srv/safar/outbox',
    });
    expect(parseConfig({ INSURER_API_URL: 'https://api.insurer.example/v2/' }).insurerApiUrl).toBe('https://api.insurer.example/v2');
  });

  it('ignores variables it does not know', () => {
    expect(parseConfig({ HOME: '/root', PATH: '/bin', NODE_ENV: 'test' }).port).toBe(8080);
  });

  it('derives the public URL from PORT when PUBLIC_URL is not set', () => {
    expect(parseConfig({ PORT: '3000' }).publicUrl).toBe('http://localhost:3000');
  });

  it('takes valid values and trims trailing slashes from URLs', () => {
    const config = parseConfig({
      PORT: '65535',
      DATA_DIR: '/var/lib/safar',
      DATABASE_URL: 'postgresql://safar@db:5432/safar',
      SIGNING_SECRET: 'a-production-secret-0123456789',
      PUBLIC_URL: 'https://safar.example.com/',
      MAIN_SITE_URL: 'https://main.example.com//',
      API_BASE_URL: 'https://api.example.com/',
      LOG_REQUESTS: 'false',
      INSURER_TIMEOUT_MS: '1500',
      ALTCHA_HMAC_KEY: 'a-production-altcha-key-0123',
      SMTP_URL: 'smtps://mailer:secret@smtp.example.com:465',
      MAIL_FROM: 'Safar Travel <hello@safar.example.com>',
      TRUST_PROXY: 'true',
      APS_REQUEST_PHRASE: 'a-production-request-phrase',
      APS_RESPONSE_PHRASE: 'a-production-response-phrase',
    });
    expect(config).toMatchObject({
      insurerTimeoutMs: 1500,
      altchaHmacKey: 'a-production-altcha-key-0123',
      smtpUrl: 'smtps://mailer:secret@smtp.example.com:465',
      mailFrom: 'Safar Travel <hello@safar.example.com>',
      port: 65535,
      dataDir: '/var/lib/safar',
      databaseUrl: 'postgresql://safar@db:5432/safar',
      signingSecret: 'a-production-secret-0123456789',
      usingDevSecret: false,
      publicUrl: 'https://safar.example.com',
      mainSiteUrl: 'https://main.example.com',
      apiBaseUrl: 'https://api.example.com',
      logRequests: false,
      trustProxy: true,
    });
  });

  it('resolves a relative DATA_DIR against the working directory', () => {
    expect(parseConfig({ DATA_DIR: 'var/data' }).dataDir).toBe(path.resolve('var/data'));
  });
});

describe('parseConfig refuses bad values, naming the variable', () => {
  const bad: [name: string, value: string][] = [
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '0'],
    ['PORT', '-1'],
    ['PORT', ''],
    ['DATABASE_URL', 'mysql://x'],
    ['SIGNING_SECRET', 'short'],
    ['PUBLIC_URL', 'not-a-url'],
    ['MAIN_SITE_URL', 'garbage without a scheme'],
    ['MAIN_SITE_URL', 'javascript:alert(1)'],
    ['PUBLIC_URL', 'ftp://safar.example'],
    ['API_BASE_URL', 'localhost:8080'],
    ['LOG_REQUESTS', 'maybe'],
    ['DATA_DIR', ''],
    ['INSURER_API_URL', 'insurer.example'],
    ['INSURER_TIMEOUT_MS', '50'],
    ['INSURER_TIMEOUT_MS', 'soon'],
    ['ALTCHA_HMAC_KEY', 'short'],
    ['SMTP_URL', 'http://smtp.example.com'],
    ['MAIL_FROM', ''],
    ['TRUST_PROXY', 'yes'],
    ['APS_ACCESS_CODE', ''],
    ['APS_MERCHANT_IDENTIFIER', ''],
    ['APS_REQUEST_PHRASE', 'short'],
    ['APS_RESPONSE_PHRASE', ''],
    ['APS_SHA_TYPE', 'SHA-1'],
    ['APS_SHA_TYPE', 'sha256'],
    ['APS_GATEWAY_URL', 'checkout.payfort.com/FortAPI/paymentPage'],
  ];

  it.each(bad)('%s=%j', (name, value) => {
    let error: unknown;
    try {
      parseConfig({ [name]: value });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(`${name}:`);
    // Only the bad variable is blamed.
    const blamed = (error as Error).message.match(/^\s*([A-Z_]+):/gm)?.map((line) => line.trim().slice(0, -1));
    expect(blamed).toEqual([name]);
  });

  it('lists every bad variable at once', () => {
    expect(() => parseConfig({ PORT: 'abc', LOG_REQUESTS: 'maybe' })).toThrow(/PORT:[\s\S]*LOG_REQUESTS:/);
  });
});

describe('row 6: development keys are loud', () => {
  const REAL = {
    SIGNING_SECRET: 'a-production-secret-0123456789',
    ALTCHA_HMAC_KEY: 'a-production-altcha-key-0123',
    APS_REQUEST_PHRASE: 'a-production-request-phrase',
    APS_RESPONSE_PHRASE: 'a-production-response-phrase',
  };
  const APS = ['APS_REQUEST_PHRASE', 'APS_RESPONSE_PHRASE'];
  const withAps = { APS_REQUEST_PHRASE: REAL.APS_REQUEST_PHRASE, APS_RESPONSE_PHRASE: REAL.APS_RESPONSE_PHRASE };

  it('row 6: lists every secret still at its development default, unset or set to that same value', () => {
    expect(secretsAtDevelopmentDefault(parseConfig({}))).toEqual(['SIGNING_SECRET', 'ALTCHA_HMAC_KEY', ...APS]);
    expect(secretsAtDevelopmentDefault(parseConfig({ SIGNING_SECRET: REAL.SIGNING_SECRET, ...withAps }))).toEqual(['ALTCHA_HMAC_KEY']);
    expect(secretsAtDevelopmentDefault(parseConfig({ ALTCHA_HMAC_KEY: REAL.ALTCHA_HMAC_KEY, ...withAps }))).toEqual(['SIGNING_SECRET']);
    expect(secretsAtDevelopmentDefault(parseConfig({ ...REAL, APS_RESPONSE_PHRASE: DEV_APS_RESPONSE_PHRASE }))).toEqual(['APS_RESPONSE_PHRASE']);
    expect(secretsAtDevelopmentDefault(parseConfig({ ...REAL, APS_REQUEST_PHRASE: DEV_APS_REQUEST_PHRASE }))).toEqual(['APS_REQUEST_PHRASE']);
    expect(secretsAtDevelopmentDefault(parseConfig({ ...REAL, ALTCHA_HMAC_KEY: DEV_ALTCHA_HMAC_KEY }))).toEqual(['ALTCHA_HMAC_KEY']);
    expect(secretsAtDevelopmentDefault(parseConfig(REAL))).toEqual([]);
  });

  it('row 6: gives one warning line per default secret, naming its variable (ALTCHA_HMAC_KEY included when SIGNING_SECRET is set)', () => {
    const all = developmentSecretWarnings(parseConfig({}));
    expect(all).toHaveLength(4);
    expect(all[0]).toMatch(/^SIGNING_SECRET is not set: using the development default/);
    expect(all[1]).toMatch(/^ALTCHA_HMAC_KEY is not set: using the development default/);
    expect(all[2]).toMatch(/^APS_REQUEST_PHRASE is not set: using the development default/);
    expect(all[3]).toMatch(/^APS_RESPONSE_PHRASE is not set: using the development default/);
    expect(developmentSecretWarnings(parseConfig({ SIGNING_SECRET: REAL.SIGNING_SECRET, ...withAps }))).toEqual([expect.stringMatching(/^ALTCHA_HMAC_KEY /)]);
    expect(developmentSecretWarnings(parseConfig(REAL))).toEqual([]);
  });

  it('row 6: refuses any default secret when PUBLIC_URL is https, naming each variable', () => {
    /** The variables a ConfigError blames, or "started" when parseConfig accepts the environment. */
    const refused = (env: Record<string, string>) => {
      let error: unknown;
      try {
        parseConfig(env);
      } catch (caught) {
        error = caught;
      }
      if (error === undefined) return 'started';
      return error instanceof ConfigError ? error.message.match(/^\s*([A-Z_]+):/gm)?.map((line) => line.trim().slice(0, -1)) : error;
    };
    expect(refused({ PUBLIC_URL: 'https://safar.example.com' })).toEqual(['SIGNING_SECRET', 'ALTCHA_HMAC_KEY', ...APS]);
    expect(refused({ PUBLIC_URL: 'https://safar.example.com', SIGNING_SECRET: REAL.SIGNING_SECRET, ...withAps })).toEqual(['ALTCHA_HMAC_KEY']);
    expect(refused({ PUBLIC_URL: 'https://safar.example.com', ...REAL, APS_RESPONSE_PHRASE: DEV_APS_RESPONSE_PHRASE })).toEqual(['APS_RESPONSE_PHRASE']);
    // A real gateway with the sandbox's demo phrases is refused just the same.
    expect(
      refused({ PUBLIC_URL: 'https://safar.example.com', SIGNING_SECRET: REAL.SIGNING_SECRET, ALTCHA_HMAC_KEY: REAL.ALTCHA_HMAC_KEY, APS_GATEWAY_URL: 'https://checkout.payfort.com/FortAPI/paymentPage' }),
    ).toEqual(APS);
    expect(refused({ PUBLIC_URL: 'https://safar.example.com', ...REAL, SIGNING_SECRET: DEV_SIGNING_SECRET })).toEqual(['SIGNING_SECRET']);
    expect(() => parseConfig({ PUBLIC_URL: 'https://safar.example.com' })).toThrow(/still the development default while PUBLIC_URL is https/);
    // Over https with real secrets, and over plain http with the defaults (development), it starts.
    expect(parseConfig({ PUBLIC_URL: 'https://safar.example.com', ...REAL }).publicUrl).toBe('https://safar.example.com');
    expect(parseConfig({ PUBLIC_URL: 'http://localhost:8080' }).signingSecret).toBe(DEV_SIGNING_SECRET);
  });
});
