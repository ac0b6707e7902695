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
  isHttpsUrl,
  isLoopbackUrl,
  parseConfig,
  publicSandboxWarning,
  RECAPTCHA_SITEVERIFY_URL,
  secretsAtDevelopmentDefault,
} from './config';

describe('parseConfig defaults', () => {
  it('runs on an empty environment with the documented defaults', () => {
    expect(parseConfig({})).toEqual({
      port: 8080,
      host: '0.0.0.0',
      dataDir: path.resolve('./data'),
      databaseUrl: '',
      databasePoolSize: 10,
      signingSecret: DEV_SIGNING_SECRET,
      usingDevSecret: true,
      publicUrl: 'http://localhost:8080',
      mainSiteUrl: 'https://www.safar.example',
      apiBaseUrl: '',
      logRequests: true,
      insurerApiUrl: 'http://127.0.0.1:8080/insurer-sandbox',
      hostsInsurerSandbox: true,
      insurerTimeoutMs: 3000,
      altchaHmacKey: DEV_ALTCHA_HMAC_KEY,
      botCheck: { mode: 'altcha' },
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
      apsApiUrl: 'http://localhost:8080/sandbox/aps/paymentApi',
      apsSandbox: true,
      demoData: true,
    });
  });

  it('posts to the embedded APS sandbox under PUBLIC_URL unless APS_GATEWAY_URL names a real gateway', () => {
    expect(parseConfig({ PORT: '3000' })).toMatchObject({ apsGatewayUrl: 'http://localhost:3000/sandbox/aps/paymentPage', apsSandbox: true });
    expect(parseConfig({ PUBLIC_URL: 'http://safar.local:8080/', APS_SANDBOX: 'true' })).toMatchObject({
      apsGatewayUrl: 'http://safar.local:8080/sandbox/aps/paymentPage',
      apsSandbox: true,
    });
    expect(parseConfig({ APS_GATEWAY_URL: '' }).apsSandbox).toBe(true);
    expect(
      parseConfig({
        APS_GATEWAY_URL: 'https://sbcheckout.payfort.com/FortAPI/paymentPage',
        APS_REQUEST_PHRASE: 'a-real-request-phrase',
        APS_RESPONSE_PHRASE: 'a-real-response-phrase',
      }),
    ).toMatchObject({
      apsGatewayUrl: 'https://sbcheckout.payfort.com/FortAPI/paymentPage',
      apsApiUrl: null,
      apsSandbox: false,
    });
  });

  it('sends the REFUND command to APS_API_URL, else to the embedded sandbox beside its payments page; a real gateway without it has none', () => {
    expect(parseConfig({ PORT: '3000' }).apsApiUrl).toBe('http://localhost:3000/sandbox/aps/paymentApi');
    const real = { APS_GATEWAY_URL: 'https://checkout.payfort.com/FortAPI/paymentPage', APS_REQUEST_PHRASE: 'a-real-request-phrase', APS_RESPONSE_PHRASE: 'a-real-response-phrase' };
    expect(parseConfig(real).apsApiUrl).toBeNull();
    expect(parseConfig({ ...real, APS_API_URL: 'https://paymentservices.payfort.com/FortAPI/paymentApi' }).apsApiUrl).toBe('https://paymentservices.payfort.com/FortAPI/paymentApi');
    expect(() => parseConfig({ APS_API_URL: 'paymentservices.payfort.com' })).toThrow(/APS_API_URL: APS_API_URL must be an absolute URL/);
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
      DATABASE_POOL_SIZE: '40',
      ALTCHA_HMAC_KEY: 'a-production-altcha-key-0123',
      SMTP_URL: 'smtps://mailer:secret@smtp.example.com:465',
      MAIL_FROM: 'Safar Travel <hello@safar.example.com>',
      TRUST_PROXY: 'true',
      APS_REQUEST_PHRASE: 'a-production-request-phrase',
      APS_RESPONSE_PHRASE: 'a-production-response-phrase',
      APS_GATEWAY_URL: 'https://checkout.payfort.com/FortAPI/paymentPage',
    });
    expect(config).toMatchObject({
      insurerTimeoutMs: 1500,
      databasePoolSize: 40,
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
    ['DATABASE_POOL_SIZE', '0'],
    ['DATABASE_POOL_SIZE', 'many'],
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
    ['APS_SANDBOX', 'yes'],
    ['APS_SANDBOX', 'TRUE'],
    ['APS_SANDBOX', ''],
    ['DEMO_DATA', 'yes'],
    ['DEMO_DATA', 'TRUE'],
    ['DEMO_DATA', ''],
    ['BOT_CHECK', 'google'],
    ['BOT_CHECK', ''],
    ['RECAPTCHA_SITE_KEY', '6Lc key with spaces'],
    ['RECAPTCHA_SITE_KEY', '6Lc"><script>'],
    ['RECAPTCHA_VERIFY_URL', 'www.google.com/recaptcha/api/siteverify'],
    ['RECAPTCHA_MIN_SCORE', '1.5'],
    ['RECAPTCHA_MIN_SCORE', '-0.1'],
    ['RECAPTCHA_MIN_SCORE', 'half'],
    ['RECAPTCHA_MIN_SCORE', ''],
    ['RECAPTCHA_TIMEOUT_MS', '50'],
    ['RECAPTCHA_TIMEOUT_MS', 'soon'],
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
    // (APS_SANDBOX=true: over https the embedded sandbox runs only when asked for; see below.)
    const sandbox = { APS_SANDBOX: 'true' };
    expect(refused({ PUBLIC_URL: 'https://safar.example.com', ...sandbox })).toEqual(['SIGNING_SECRET', 'ALTCHA_HMAC_KEY', ...APS]);
    expect(refused({ PUBLIC_URL: 'https://safar.example.com', ...sandbox, SIGNING_SECRET: REAL.SIGNING_SECRET, ...withAps })).toEqual(['ALTCHA_HMAC_KEY']);
    expect(refused({ PUBLIC_URL: 'https://safar.example.com', ...sandbox, ...REAL, APS_RESPONSE_PHRASE: DEV_APS_RESPONSE_PHRASE })).toEqual(['APS_RESPONSE_PHRASE']);
    // A real gateway with the sandbox's demo phrases is refused just the same.
    expect(
      refused({ PUBLIC_URL: 'https://safar.example.com', SIGNING_SECRET: REAL.SIGNING_SECRET, ALTCHA_HMAC_KEY: REAL.ALTCHA_HMAC_KEY, APS_GATEWAY_URL: 'https://checkout.payfort.com/FortAPI/paymentPage' }),
    ).toEqual(APS);
    expect(refused({ PUBLIC_URL: 'https://safar.example.com', ...sandbox, ...REAL, SIGNING_SECRET: DEV_SIGNING_SECRET })).toEqual(['SIGNING_SECRET']);
    expect(() => parseConfig({ PUBLIC_URL: 'https://safar.example.com', ...sandbox })).toThrow(/still the development default while PUBLIC_URL is https/);
    // Over https with real secrets, and over plain http with the defaults (development), it starts.
    expect(parseConfig({ PUBLIC_URL: 'https://safar.example.com', ...sandbox, ...REAL }).publicUrl).toBe('https://safar.example.com');
    expect(parseConfig({ PUBLIC_URL: 'http://localhost:8080' }).signingSecret).toBe(DEV_SIGNING_SECRET);
  });
});

/** The variables a ConfigError blames, in order, or "started" when parseConfig accepts the environment. */
function blamed(env: Record<string, string>): string[] | 'started' {
  try {
    parseConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.message.match(/^\s*([A-Z_]+):/gm)?.map((line) => line.trim().slice(0, -1)) ?? [];
  }
  return 'started';
}

/** The message of the ConfigError parseConfig throws for env (fails the test when it starts). */
function refusal(env: Record<string, string>): string {
  try {
    parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error(`parseConfig started with ${JSON.stringify(env)}`);
}

describe('the embedded APS sandbox runs only where asked for (APS_SANDBOX)', () => {
  const SECRETS = {
    SIGNING_SECRET: 'a-production-secret-0123456789',
    ALTCHA_HMAC_KEY: 'a-production-altcha-key-0123',
    APS_REQUEST_PHRASE: 'a-production-request-phrase',
    APS_RESPONSE_PHRASE: 'a-production-response-phrase',
  };
  const HTTPS = { PUBLIC_URL: 'https://safar.example.com', ...SECRETS };
  const GATEWAY = 'https://checkout.payfort.com/FortAPI/paymentPage';

  it('refuses https with an empty APS_GATEWAY_URL and APS_SANDBOX unset: the public test card would pay real orders', () => {
    expect(blamed(HTTPS)).toEqual(['APS_GATEWAY_URL']);
    const message = refusal(HTTPS);
    expect(message).toMatch(/APS_GATEWAY_URL: empty while PUBLIC_URL is https/);
    // It says what to do: either fix.
    expect(message).toContain('APS_SANDBOX=true');
    expect(message).toContain('set APS_GATEWAY_URL');
  });

  it('refuses https with an empty APS_GATEWAY_URL and APS_SANDBOX=false, and plain http too: no gateway at all', () => {
    expect(blamed({ ...HTTPS, APS_SANDBOX: 'false' })).toEqual(['APS_GATEWAY_URL']);
    expect(blamed({ APS_SANDBOX: 'false' })).toEqual(['APS_GATEWAY_URL']);
    expect(blamed({ APS_SANDBOX: 'false', APS_GATEWAY_URL: '' })).toEqual(['APS_GATEWAY_URL']);
    expect(refusal({ APS_SANDBOX: 'false' })).toMatch(/APS_GATEWAY_URL: empty while APS_SANDBOX is false, so there is no payment gateway at all/);
  });

  it('runs the sandbox over https only with an explicit APS_SANDBOX=true (and every secret set)', () => {
    expect(parseConfig({ ...HTTPS, APS_SANDBOX: 'true' })).toMatchObject({
      publicUrl: 'https://safar.example.com',
      apsSandbox: true,
      apsGatewayUrl: 'https://safar.example.com/sandbox/aps/paymentPage',
    });
    expect(parseConfig({ ...HTTPS, APS_SANDBOX: 'true', APS_GATEWAY_URL: '' }).apsSandbox).toBe(true);
  });

  it('still refuses the demo APS phrases over https with APS_SANDBOX=true, like every development secret', () => {
    expect(blamed({ ...HTTPS, APS_SANDBOX: 'true', APS_REQUEST_PHRASE: DEV_APS_REQUEST_PHRASE })).toEqual(['APS_REQUEST_PHRASE']);
    expect(blamed({ PUBLIC_URL: 'https://safar.example.com', APS_SANDBOX: 'true' })).toEqual([
      'SIGNING_SECRET',
      'ALTCHA_HMAC_KEY',
      'APS_REQUEST_PHRASE',
      'APS_RESPONSE_PHRASE',
    ]);
  });

  it('refuses APS_SANDBOX=true with a real APS_GATEWAY_URL, over http or https: a contradiction', () => {
    expect(blamed({ ...SECRETS, APS_SANDBOX: 'true', APS_GATEWAY_URL: GATEWAY })).toEqual(['APS_SANDBOX']);
    expect(blamed({ ...HTTPS, APS_SANDBOX: 'true', APS_GATEWAY_URL: GATEWAY })).toEqual(['APS_SANDBOX']);
    expect(refusal({ ...SECRETS, APS_SANDBOX: 'true', APS_GATEWAY_URL: GATEWAY })).toMatch(/APS_SANDBOX: true, but APS_GATEWAY_URL names a real gateway/);
  });

  it('posts to a real gateway over https with APS_SANDBOX unset or false: the sandbox is not mounted', () => {
    for (const env of [{ ...HTTPS, APS_GATEWAY_URL: GATEWAY }, { ...HTTPS, APS_GATEWAY_URL: GATEWAY, APS_SANDBOX: 'false' }]) {
      expect(parseConfig(env)).toMatchObject({ apsSandbox: false, apsGatewayUrl: GATEWAY });
    }
    expect(parseConfig({ ...SECRETS, APS_GATEWAY_URL: GATEWAY, APS_SANDBOX: 'false' }).apsSandbox).toBe(false);
  });

  it('keeps the local start as it was: on loopback http, APS_SANDBOX unset and an empty APS_GATEWAY_URL is the sandbox, defaults allowed', () => {
    expect(parseConfig({}).apsSandbox).toBe(true);
    expect(parseConfig({ PUBLIC_URL: 'http://127.0.0.1:8080' }).apsSandbox).toBe(true);
    expect(parseConfig({ APS_SANDBOX: 'true' }).apsSandbox).toBe(true);
  });

  it('refuses a real APS_GATEWAY_URL with either demo APS phrase over plain http, naming the phrase', () => {
    const http = { SIGNING_SECRET: SECRETS.SIGNING_SECRET, ALTCHA_HMAC_KEY: SECRETS.ALTCHA_HMAC_KEY, APS_GATEWAY_URL: GATEWAY };
    expect(blamed(http)).toEqual(['APS_REQUEST_PHRASE', 'APS_RESPONSE_PHRASE']);
    expect(blamed({ ...http, APS_REQUEST_PHRASE: SECRETS.APS_REQUEST_PHRASE })).toEqual(['APS_RESPONSE_PHRASE']);
    expect(blamed({ ...http, APS_RESPONSE_PHRASE: SECRETS.APS_RESPONSE_PHRASE })).toEqual(['APS_REQUEST_PHRASE']);
    // Set to the demo value by hand counts the same as unset.
    expect(blamed({ ...http, APS_REQUEST_PHRASE: DEV_APS_REQUEST_PHRASE, APS_RESPONSE_PHRASE: SECRETS.APS_RESPONSE_PHRASE })).toEqual(['APS_REQUEST_PHRASE']);
    expect(refusal(http)).toMatch(/APS_REQUEST_PHRASE: still the sandbox's development default while APS_GATEWAY_URL names a real gateway/);
    // Over http with the defaults the other secrets are only warned about, as before.
    expect(blamed({ APS_GATEWAY_URL: GATEWAY, APS_REQUEST_PHRASE: SECRETS.APS_REQUEST_PHRASE, APS_RESPONSE_PHRASE: SECRETS.APS_RESPONSE_PHRASE })).toBe('started');
  });
});

describe('the sandbox where others can reach it needs APS_SANDBOX=true (RULINGS 27)', () => {
  const NOT_LOOPBACK = ['http://safar.example.com', 'http://192.168.1.5:8080', 'http://10.0.0.2', 'http://0.0.0.0:8080', 'http://[fe80::1]:8080', 'http://localhost.safar.example', 'http://128.0.0.1'];
  const LOOPBACK = ['http://localhost:8080', 'http://LOCALHOST:3000/', 'http://127.0.0.1:3000', 'http://127.5.6.7', 'http://127.1:8080', 'http://[::1]:8080'];

  it.each(NOT_LOOPBACK)('PUBLIC_URL=%s with an empty APS_GATEWAY_URL and APS_SANDBOX unset refuses to start, naming APS_GATEWAY_URL', (publicUrl) => {
    expect(blamed({ PUBLIC_URL: publicUrl })).toEqual(['APS_GATEWAY_URL']);
    const message = refusal({ PUBLIC_URL: publicUrl });
    expect(message).toMatch(/APS_GATEWAY_URL: empty while PUBLIC_URL \(.+\) is not a loopback address/);
    // It says what to do: either fix.
    expect(message).toContain('APS_SANDBOX=true');
    expect(message).toContain('set APS_GATEWAY_URL');
  });

  it.each(LOOPBACK)('PUBLIC_URL=%s runs the sandbox and its demo data with nothing said, as the local start always has', (publicUrl) => {
    const config = parseConfig({ PUBLIC_URL: publicUrl });
    expect(config).toMatchObject({ apsSandbox: true, demoData: true });
    expect(publicSandboxWarning(config)).toBeNull();
  });

  it('runs the sandbox on a non-loopback PUBLIC_URL, http or https, with APS_SANDBOX=true, and warns that its public test card pays orders', () => {
    const secrets = {
      SIGNING_SECRET: 'a-production-secret-0123456789',
      ALTCHA_HMAC_KEY: 'a-production-altcha-key-0123',
      APS_REQUEST_PHRASE: 'a-production-request-phrase',
      APS_RESPONSE_PHRASE: 'a-production-response-phrase',
    };
    for (const publicUrl of ['http://192.168.1.5:8080', 'http://safar.example.com', 'https://staging.safar.example.com']) {
      const config = parseConfig({ PUBLIC_URL: publicUrl, APS_SANDBOX: 'true', ...secrets });
      expect(config).toMatchObject({ apsSandbox: true, demoData: true });
      const warning = publicSandboxWarning(config);
      expect(warning).toContain(config.publicUrl);
      expect(warning).toMatch(/public test card pays any order/);
      expect(warning).toMatch(/demo coupons/);
    }
    // Without demo data the warning is about the card alone.
    const plain = publicSandboxWarning(parseConfig({ PUBLIC_URL: 'http://safar.example.com', APS_SANDBOX: 'true', DEMO_DATA: 'false' }));
    expect(plain).toMatch(/public test card pays any order/);
    expect(plain).not.toMatch(/demo coupons/);
    // A real gateway: no sandbox, nothing to warn about.
    expect(publicSandboxWarning(parseConfig({ ...secrets, PUBLIC_URL: 'https://safar.example.com', APS_GATEWAY_URL: 'https://checkout.payfort.com/FortAPI/paymentPage' }))).toBeNull();
  });

  it('isLoopbackUrl reads the host as the URL parser does: localhost, 127.0.0.0/8 and [::1] only', () => {
    for (const value of [...LOOPBACK, 'https://localhost', 'http://0x7f.0.0.1']) expect(isLoopbackUrl(value)).toBe(true);
    for (const value of [...NOT_LOOPBACK, 'not a url', '', 'http://[::ffff:127.0.0.1]']) expect(isLoopbackUrl(value)).toBe(false);
  });
});

describe('demo data only beside the sandbox (RULINGS 27, DEMO_DATA)', () => {
  const SECRETS = {
    SIGNING_SECRET: 'a-production-secret-0123456789',
    ALTCHA_HMAC_KEY: 'a-production-altcha-key-0123',
    APS_REQUEST_PHRASE: 'a-production-request-phrase',
    APS_RESPONSE_PHRASE: 'a-production-response-phrase',
  };
  const GATEWAY = 'https://sbcheckout.payfort.com/FortAPI/paymentPage';
  const PRODUCTION = { ...SECRETS, PUBLIC_URL: 'https://safar.example.com', APS_GATEWAY_URL: GATEWAY };

  it('follows the sandbox when DEMO_DATA is unset: on with the embedded sandbox, off with a real gateway', () => {
    expect(parseConfig({}).demoData).toBe(true);
    expect(parseConfig({ ...SECRETS, PUBLIC_URL: 'https://staging.safar.example.com', APS_SANDBOX: 'true' }).demoData).toBe(true);
    expect(parseConfig(PRODUCTION)).toMatchObject({ apsSandbox: false, demoData: false });
    expect(parseConfig({ ...SECRETS, APS_GATEWAY_URL: GATEWAY }).demoData).toBe(false);
  });

  it('takes DEMO_DATA=false beside the sandbox and beside a real gateway, and DEMO_DATA=true beside the sandbox', () => {
    expect(parseConfig({ DEMO_DATA: 'false' })).toMatchObject({ apsSandbox: true, demoData: false });
    expect(parseConfig({ DEMO_DATA: 'true' })).toMatchObject({ apsSandbox: true, demoData: true });
    expect(parseConfig({ ...PRODUCTION, DEMO_DATA: 'false' }).demoData).toBe(false);
  });

  it('refuses DEMO_DATA=true with a real APS_GATEWAY_URL, over https or http, naming DEMO_DATA alone', () => {
    expect(blamed({ ...PRODUCTION, DEMO_DATA: 'true' })).toEqual(['DEMO_DATA']);
    expect(blamed({ ...SECRETS, APS_GATEWAY_URL: GATEWAY, DEMO_DATA: 'true' })).toEqual(['DEMO_DATA']);
    expect(refusal({ ...PRODUCTION, DEMO_DATA: 'true' })).toMatch(/DEMO_DATA: true while APS_GATEWAY_URL names a real gateway/);
  });
});

describe('https is decided by the URL parser, not by spelling', () => {
  const SECRETS = {
    SIGNING_SECRET: 'a-production-secret-0123456789',
    ALTCHA_HMAC_KEY: 'a-production-altcha-key-0123',
    APS_REQUEST_PHRASE: 'a-production-request-phrase',
    APS_RESPONSE_PHRASE: 'a-production-response-phrase',
  };
  const SPELLINGS = ['HTTPS://safar.example', ' https://safar.example', 'Https://safar.example/', '\thttps://safar.example ', 'https://SAFAR.example'];

  it.each(SPELLINGS)('PUBLIC_URL=%j with the development secrets refuses to start', (publicUrl) => {
    expect(blamed({ PUBLIC_URL: publicUrl, APS_SANDBOX: 'true' })).toEqual(['SIGNING_SECRET', 'ALTCHA_HMAC_KEY', 'APS_REQUEST_PHRASE', 'APS_RESPONSE_PHRASE']);
    // And the sandbox is not switched on by it either.
    expect(blamed({ PUBLIC_URL: publicUrl, ...SECRETS })).toEqual(['APS_GATEWAY_URL']);
  });

  it.each(SPELLINGS)('PUBLIC_URL=%j is kept as https://safar.example', (publicUrl) => {
    expect(parseConfig({ PUBLIC_URL: publicUrl, ...SECRETS, APS_SANDBOX: 'true' })).toMatchObject({
      publicUrl: 'https://safar.example',
      apsGatewayUrl: 'https://safar.example/sandbox/aps/paymentPage',
    });
  });

  it('normalises every URL variable the same way: parsed, lower-case scheme and host, no trailing slash', () => {
    const config = parseConfig({
      ...SECRETS,
      PUBLIC_URL: ' HTTPS://Safar.Example/base/ ',
      MAIN_SITE_URL: 'HTTPS://WWW.Safar.Example/',
      API_BASE_URL: ' https://API.safar.example/v1/',
      INSURER_API_URL: 'HTTP://Insurer.Example:8081/api//',
      APS_GATEWAY_URL: ' HTTPS://Checkout.Payfort.com/FortAPI/paymentPage ',
    });
    expect(config).toMatchObject({
      publicUrl: 'https://safar.example/base',
      mainSiteUrl: 'https://www.safar.example',
      apiBaseUrl: 'https://api.safar.example/v1',
      insurerApiUrl: 'http://insurer.example:8081/api',
      hostsInsurerSandbox: false,
      apsGatewayUrl: 'https://checkout.payfort.com/FortAPI/paymentPage',
      apsSandbox: false,
    });
  });

  it('isHttpsUrl parses: case and surrounding spaces do not matter, http and garbage are not https', () => {
    for (const value of ['https://a.example', 'HTTPS://a.example', ' https://a.example', 'hTTpS://a.example/x']) expect(isHttpsUrl(value)).toBe(true);
    for (const value of ['http://a.example', 'https', 'not a url', '', 'ftp://a.example', 'javascript:https://a']) expect(isHttpsUrl(value)).toBe(false);
  });
});

describe('the bot check: ALTCHA by default, reCAPTCHA v3 by BOT_CHECK (RULINGS 16)', () => {
  const KEYS = { RECAPTCHA_SITE_KEY: '6LcSafarSiteKey_-0123456789', RECAPTCHA_SECRET_KEY: '6LcSafarSecretKey-0123456789' };

  it('is ALTCHA without BOT_CHECK and with BOT_CHECK=altcha, whatever reCAPTCHA keys are set', () => {
    expect(parseConfig({}).botCheck).toEqual({ mode: 'altcha' });
    expect(parseConfig({ BOT_CHECK: 'altcha', ...KEYS }).botCheck).toEqual({ mode: 'altcha' });
  });

  it("with BOT_CHECK=recaptcha takes both keys, Google's siteverify, score 0.5 and a 5 s timeout by default", () => {
    expect(parseConfig({ BOT_CHECK: 'recaptcha', ...KEYS }).botCheck).toEqual({
      mode: 'recaptcha',
      siteKey: KEYS.RECAPTCHA_SITE_KEY,
      secretKey: KEYS.RECAPTCHA_SECRET_KEY,
      verifyUrl: RECAPTCHA_SITEVERIFY_URL,
      minScore: 0.5,
      timeoutMs: 5000,
    });
    expect(RECAPTCHA_SITEVERIFY_URL).toBe('https://www.google.com/recaptcha/api/siteverify');
  });

  it('takes RECAPTCHA_VERIFY_URL, RECAPTCHA_MIN_SCORE and RECAPTCHA_TIMEOUT_MS', () => {
    expect(
      parseConfig({
        BOT_CHECK: 'recaptcha',
        ...KEYS,
        RECAPTCHA_VERIFY_URL: 'http://127.0.0.1:9999/siteverify',
        RECAPTCHA_MIN_SCORE: '0.7',
        RECAPTCHA_TIMEOUT_MS: '1500',
      }).botCheck,
    ).toMatchObject({ verifyUrl: 'http://127.0.0.1:9999/siteverify', minScore: 0.7, timeoutMs: 1500 });
    for (const [text, score] of [['0', 0], ['1', 1], ['1.0', 1], ['0.25', 0.25], ['.9', 0.9]] as const) {
      expect(parseConfig({ BOT_CHECK: 'recaptcha', ...KEYS, RECAPTCHA_MIN_SCORE: text }).botCheck).toMatchObject({ minScore: score });
    }
  });

  it('refuses BOT_CHECK=recaptcha without its keys, naming each missing one', () => {
    /** The variables a ConfigError blames, one per line; 'accepted' when parseConfig took the environment. */
    const refusal = (env: Record<string, string>) => {
      try {
        parseConfig({ BOT_CHECK: 'recaptcha', ...env });
        return 'accepted';
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        return error.message.match(/^\s*([A-Z_]+):/gm)?.map((line) => line.trim().slice(0, -1));
      }
    };
    expect(refusal({})).toEqual(['RECAPTCHA_SITE_KEY', 'RECAPTCHA_SECRET_KEY']);
    expect(refusal({ RECAPTCHA_SITE_KEY: KEYS.RECAPTCHA_SITE_KEY })).toEqual(['RECAPTCHA_SECRET_KEY']);
    expect(refusal({ RECAPTCHA_SECRET_KEY: KEYS.RECAPTCHA_SECRET_KEY, RECAPTCHA_SITE_KEY: '' })).toEqual(['RECAPTCHA_SITE_KEY']);
    expect(refusal({ RECAPTCHA_SITE_KEY: KEYS.RECAPTCHA_SITE_KEY, RECAPTCHA_SECRET_KEY: '   ' })).toEqual(['RECAPTCHA_SECRET_KEY']);
  });
});
