import * as v from 'valibot';
import path from 'node:path';

/** The development signing key. Browser code carries the key, so it proves integrity only (RULINGS 23). */
export const DEV_SIGNING_SECRET = 'safar-dev-signing-secret-change-me';

/** The development key of the bot check's challenges (RULINGS 16); set ALTCHA_HMAC_KEY in production. */
export const DEV_ALTCHA_HMAC_KEY = 'safar-dev-altcha-key-change-me';

/** Google's reCAPTCHA verify endpoint (RULINGS 16); RECAPTCHA_VERIFY_URL replaces it (tests: a local fake). */
export const RECAPTCHA_SITEVERIFY_URL = 'https://www.google.com/recaptcha/api/siteverify';

/**
 * Demo credentials of the embedded APS sandbox gateway (RULINGS 20). The access code and merchant
 * identifier are posted through the browser anyway; the two phrases sign requests and responses,
 * so they are secrets: at these defaults they are warned about, refused on https like the others,
 * and refused with a real gateway (APS_GATEWAY_URL set) over http too.
 */
export const DEV_APS_ACCESS_CODE = 'safarSandboxAccess01';
export const DEV_APS_MERCHANT_IDENTIFIER = 'safarsbx';
export const DEV_APS_REQUEST_PHRASE = 'safar-dev-aps-request-phrase-change-me';
export const DEV_APS_RESPONSE_PHRASE = 'safar-dev-aps-response-phrase-change-me';

/** Path of the embedded sandbox's payment page, used when APS_GATEWAY_URL is empty (and, over https, APS_SANDBOX=true). */
export const APS_SANDBOX_PAYMENT_PAGE_PATH = '/sandbox/aps/paymentPage';
/** Path of the embedded sandbox's server-to-server API (the REFUND command), used when APS_API_URL is empty with the sandbox. */
export const APS_SANDBOX_API_PATH = '/sandbox/aps/paymentApi';

// http(s) only: new URL() also takes "localhost:8080" (scheme "localhost:") or "javascript:…",
// which would become broken API origins or unsafe links in the SPA.
const url = (name: string) =>
  v.pipe(
    v.string(),
    v.check(
      (value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol),
      `${name} must be an absolute URL such as https://example.com`,
    ),
  );

const envSchema = v.object({
  PORT: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,5}$/, 'PORT must be a whole number between 1 and 65535'),
      v.transform(Number),
      v.minValue(1, 'PORT must be a whole number between 1 and 65535'),
      v.maxValue(65535, 'PORT must be a whole number between 1 and 65535'),
    ),
    '8080',
  ),
  HOST: v.optional(v.pipe(v.string(), v.minLength(1, 'HOST must not be empty')), '0.0.0.0'),
  DATA_DIR: v.optional(v.pipe(v.string(), v.minLength(1, 'DATA_DIR must not be empty')), './data'),
  DATABASE_URL: v.optional(
    v.union(
      [v.literal(''), v.pipe(v.string(), v.regex(/^postgres(ql)?:\/\//))],
      'DATABASE_URL must be empty (embedded PGlite) or a postgres:// or postgresql:// URL',
    ),
    '',
  ),
  SIGNING_SECRET: v.optional(
    v.pipe(v.string(), v.minLength(16, 'SIGNING_SECRET must be at least 16 characters long')),
    DEV_SIGNING_SECRET,
  ),
  PUBLIC_URL: v.optional(url('PUBLIC_URL')),
  MAIN_SITE_URL: v.optional(url('MAIN_SITE_URL'), 'https://www.safar.example'),
  API_BASE_URL: v.optional(v.union([v.literal(''), url('API_BASE_URL')], 'API_BASE_URL must be empty or an absolute URL'), ''),
  LOG_REQUESTS: v.optional(
    v.picklist(['true', 'false'], 'LOG_REQUESTS must be true or false'),
    'true',
  ),
  INSURER_API_URL: v.optional(v.union([v.literal(''), url('INSURER_API_URL')], 'INSURER_API_URL must be empty or an absolute URL'), ''),
  DATABASE_POOL_SIZE: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,4}$/, 'DATABASE_POOL_SIZE must be a whole number of connections between 1 and 1000'),
      v.transform(Number),
      v.minValue(1, 'DATABASE_POOL_SIZE must be a whole number of connections between 1 and 1000'),
      v.maxValue(1000, 'DATABASE_POOL_SIZE must be a whole number of connections between 1 and 1000'),
    ),
    '10',
  ),
  INSURER_TIMEOUT_MS: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,6}$/, 'INSURER_TIMEOUT_MS must be a whole number of milliseconds between 100 and 60000'),
      v.transform(Number),
      v.minValue(100, 'INSURER_TIMEOUT_MS must be a whole number of milliseconds between 100 and 60000'),
      v.maxValue(60_000, 'INSURER_TIMEOUT_MS must be a whole number of milliseconds between 100 and 60000'),
    ),
    '3000',
  ),
  ALTCHA_HMAC_KEY: v.optional(
    v.pipe(v.string(), v.minLength(16, 'ALTCHA_HMAC_KEY must be at least 16 characters long')),
    DEV_ALTCHA_HMAC_KEY,
  ),
  BOT_CHECK: v.optional(v.picklist(['altcha', 'recaptcha'], 'BOT_CHECK must be altcha or recaptcha'), 'altcha'),
  // The site key goes into the script URL the browser loads: only the characters Google's keys have.
  RECAPTCHA_SITE_KEY: v.optional(
    v.pipe(v.string(), v.regex(/^[\w-]*$/, 'RECAPTCHA_SITE_KEY must be the v3 site key from the reCAPTCHA admin console (letters, digits, - and _)')),
    '',
  ),
  RECAPTCHA_SECRET_KEY: v.optional(v.string(), ''),
  RECAPTCHA_VERIFY_URL: v.optional(url('RECAPTCHA_VERIFY_URL'), RECAPTCHA_SITEVERIFY_URL),
  RECAPTCHA_MIN_SCORE: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/, 'RECAPTCHA_MIN_SCORE must be a number from 0 to 1, such as 0.5'),
      v.transform(Number),
    ),
    '0.5',
  ),
  RECAPTCHA_TIMEOUT_MS: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,6}$/, 'RECAPTCHA_TIMEOUT_MS must be a whole number of milliseconds between 100 and 60000'),
      v.transform(Number),
      v.minValue(100, 'RECAPTCHA_TIMEOUT_MS must be a whole number of milliseconds between 100 and 60000'),
      v.maxValue(60_000, 'RECAPTCHA_TIMEOUT_MS must be a whole number of milliseconds between 100 and 60000'),
    ),
    '5000',
  ),
  SMTP_URL: v.optional(
    v.union([v.literal(''), v.pipe(v.string(), v.regex(/^smtps?:\/\//))], 'SMTP_URL must be empty (write .eml files) or an smtp:// or smtps:// URL'),
    '',
  ),
  MAIL_FROM: v.optional(v.pipe(v.string(), v.minLength(3, 'MAIL_FROM must not be empty')), 'Safar <care@safar.example>'),
  TRUST_PROXY: v.optional(v.picklist(['true', 'false'], 'TRUST_PROXY must be true or false'), 'false'),
  APS_ACCESS_CODE: v.optional(v.pipe(v.string(), v.minLength(1, 'APS_ACCESS_CODE must not be empty')), DEV_APS_ACCESS_CODE),
  APS_MERCHANT_IDENTIFIER: v.optional(
    v.pipe(v.string(), v.minLength(1, 'APS_MERCHANT_IDENTIFIER must not be empty')),
    DEV_APS_MERCHANT_IDENTIFIER,
  ),
  APS_REQUEST_PHRASE: v.optional(
    v.pipe(v.string(), v.minLength(8, 'APS_REQUEST_PHRASE must be at least 8 characters long')),
    DEV_APS_REQUEST_PHRASE,
  ),
  APS_RESPONSE_PHRASE: v.optional(
    v.pipe(v.string(), v.minLength(8, 'APS_RESPONSE_PHRASE must be at least 8 characters long')),
    DEV_APS_RESPONSE_PHRASE,
  ),
  APS_SHA_TYPE: v.optional(v.picklist(['SHA-256', 'SHA-512'], 'APS_SHA_TYPE must be SHA-256 or SHA-512'), 'SHA-256'),
  APS_GATEWAY_URL: v.optional(
    v.union([v.literal(''), url('APS_GATEWAY_URL')], 'APS_GATEWAY_URL must be empty (the embedded sandbox) or an absolute URL'),
    '',
  ),
  APS_API_URL: v.optional(
    v.union([v.literal(''), url('APS_API_URL')], 'APS_API_URL must be empty (the embedded sandbox) or an absolute URL'),
    '',
  ),
  // Unset, not defaulted: "not said" must differ from "false" (see apsGatewayProblem).
  APS_SANDBOX: v.optional(v.picklist(['true', 'false'], 'APS_SANDBOX must be true or false')),
  // Unset follows the sandbox (RULINGS 27), so only an explicit true can contradict a real gateway.
  DEMO_DATA: v.optional(v.picklist(['true', 'false'], 'DEMO_DATA must be true or false')),
});

/**
 * The bot check proceed-review takes (RULINGS 16): ALTCHA (the default, keyed by altchaHmacKey),
 * or reCAPTCHA v3 with its keys, verify endpoint, lowest passing score and verify timeout.
 */
export type BotCheckConfig =
  | { mode: 'altcha' }
  | { mode: 'recaptcha'; siteKey: string; secretKey: string; verifyUrl: string; minScore: number; timeoutMs: number };

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string;
  /** Connections each instance keeps to PostgreSQL at most (DATABASE_URL only). */
  databasePoolSize: number;
  signingSecret: string;
  usingDevSecret: boolean;
  publicUrl: string;
  mainSiteUrl: string;
  apiBaseUrl: string;
  logRequests: boolean;
  /** Base URL of the HTTP insurer's quoting API; by default the sandbox this server hosts. */
  insurerApiUrl: string;
  /**
   * INSURER_API_URL was not set: this server starts the insurer sandbox on a thread of its own and
   * quotes against it (main.ts, issue 34 item 5); the route at insurerApiUrl answers the same.
   */
  hostsInsurerSandbox: boolean;
  insurerTimeoutMs: number;
  altchaHmacKey: string;
  botCheck: BotCheckConfig;
  /** Empty: mail is written as .eml files under DATA_DIR/outbox (RULINGS 22). */
  smtpUrl: string;
  mailFrom: string;
  outboxDir: string;
  /**
   * Whether a reverse proxy in front sets X-Forwarded-For: then the client address of the rate
   * limits is its right-most entry (the one the proxy added); otherwise the socket's address.
   */
  trustProxy: boolean;
  /** Amazon Payment Services (RULINGS 19–20): what the payments page posts and signs with. */
  apsAccessCode: string;
  apsMerchantIdentifier: string;
  apsRequestPhrase: string;
  apsResponsePhrase: string;
  /** The hash of both signatures, as node:crypto names it (APS_SHA_TYPE SHA-256 or SHA-512). */
  apsShaType: 'sha256' | 'sha512';
  /**
   * Where the payments page posts its form. APS_GATEWAY_URL empty (the default) means the embedded
   * sandbox: PUBLIC_URL + /sandbox/aps/paymentPage, since it is the browser that posts there.
   */
  apsGatewayUrl: string;
  /**
   * Where the server sends APS's server-to-server commands (the REFUND, issue 36): APS_API_URL
   * (APS's https://paymentservices.payfort.com/FortAPI/paymentApi, or sbpaymentservices… for its
   * test environment); empty with the embedded sandbox, PUBLIC_URL + /sandbox/aps/paymentApi;
   * null with a real gateway and no APS_API_URL, when refunds cannot be sent (they say so).
   */
  apsApiUrl: string | null;
  /**
   * True when the server mounts its sandbox gateway under /sandbox/aps/: APS_GATEWAY_URL empty,
   * and, on a PUBLIC_URL that is not loopback (https or not), only with an explicit
   * APS_SANDBOX=true (its public test card pays any order).
   */
  apsSandbox: boolean;
  /**
   * Whether the demo coupons and demo agents are seeded and stay active (RULINGS 27): DEMO_DATA,
   * or the sandbox when it is unset. Off, a start disables the demo rows the broker left as seeded.
   */
  demoData: boolean;
}

/** The part of the configuration the app reads (main.ts passes the whole Config). It lives here, not in app.ts, so that the modules app.ts imports never import app.ts back. */
export type AppConfig = Pick<
  Config,
  | 'signingSecret'
  | 'apiBaseUrl'
  | 'mainSiteUrl'
  | 'publicUrl'
  | 'insurerApiUrl'
  | 'insurerTimeoutMs'
  | 'altchaHmacKey'
  | 'botCheck'
  | 'smtpUrl'
  | 'mailFrom'
  | 'outboxDir'
  | 'trustProxy'
  | 'apsAccessCode'
  | 'apsMerchantIdentifier'
  | 'apsRequestPhrase'
  | 'apsResponsePhrase'
  | 'apsShaType'
  | 'apsGatewayUrl'
  | 'apsApiUrl'
  | 'apsSandbox'
>;

export class ConfigError extends Error {}

/**
 * Every secret that has a development default: its variable and where Config keeps it. A secret
 * added later (APS_* for the gateway) joins by one line, and so gets the start-up warning and the
 * https refusal below (issue 7 row 6).
 */
const DEVELOPMENT_SECRETS: readonly { variable: string; value: (config: Config) => string; development: string }[] = [
  { variable: 'SIGNING_SECRET', value: (config) => config.signingSecret, development: DEV_SIGNING_SECRET },
  { variable: 'ALTCHA_HMAC_KEY', value: (config) => config.altchaHmacKey, development: DEV_ALTCHA_HMAC_KEY },
  { variable: 'APS_REQUEST_PHRASE', value: (config) => config.apsRequestPhrase, development: DEV_APS_REQUEST_PHRASE },
  { variable: 'APS_RESPONSE_PHRASE', value: (config) => config.apsResponsePhrase, development: DEV_APS_RESPONSE_PHRASE },
];

/**
 * The variables whose secret is still its development default (unset, or set to that same value),
 * in the order above. Anyone can read those defaults in the source, so a token or signature made
 * with one proves nothing.
 */
export function secretsAtDevelopmentDefault(config: Config): string[] {
  return DEVELOPMENT_SECRETS.filter((secret) => secret.value(config) === secret.development).map((secret) => secret.variable);
}

/** One warning line per secret at its development default, each naming the variable (printed at start). */
export function developmentSecretWarnings(config: Config): string[] {
  return secretsAtDevelopmentDefault(config).map(
    (variable) => `${variable} is not set: using the development default, which anyone can read in the source. Set it in production.`,
  );
}

/**
 * Whether a URL is https, decided by the URL parser as a browser would read it: `HTTPS://…` and
 * ` https://…` (the parser drops the case and the surrounding spaces) are https too, so a check
 * built on this cannot be got round by spelling. Anything that does not parse is not https.
 */
export function isHttpsUrl(value: string): boolean {
  return URL.canParse(value) && new URL(value).protocol === 'https:';
}

/**
 * A URL variable in one shape: as the URL parser writes it (scheme and host in lower case, no
 * surrounding spaces) and without trailing slashes, so `https://safar.example` and
 * `https://safar.example/base` are what every link is built on.
 */
function normaliseUrl(value: string): string {
  return new URL(value).href.replace(/\/+$/, '');
}

/**
 * Whether a URL's host is this machine only: localhost, 127.0.0.0/8 or [::1], as the URL parser
 * reads the host (it writes 127.1 or 0x7f.0.0.1 as 127.0.0.1), so no spelling gets round it. Only
 * there can nobody but the developer reach the embedded sandbox and its public test card.
 */
export function isLoopbackUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const host = new URL(value).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * What is wrong with the choice of payment gateway, or null. The embedded sandbox accepts a
 * public test card, so where others can reach it (any PUBLIC_URL but loopback: https, or plain
 * http on a LAN address or a domain) it runs only when asked for by name; a contradiction or no
 * gateway at all is refused rather than guessed at.
 */
function apsGatewayProblem(gatewayUrl: string, sandbox: 'true' | 'false' | undefined, publicUrl: string): string | null {
  if (sandbox === 'true' && gatewayUrl !== '') {
    return 'APS_SANDBOX: true, but APS_GATEWAY_URL names a real gateway; set one or the other: leave APS_GATEWAY_URL empty for the embedded sandbox, or unset APS_SANDBOX to post to the gateway';
  }
  if (sandbox === 'false' && gatewayUrl === '') {
    return 'APS_GATEWAY_URL: empty while APS_SANDBOX is false, so there is no payment gateway at all; set APS_GATEWAY_URL to the gateway\'s payment page (e.g. https://checkout.payfort.com/FortAPI/paymentPage), or APS_SANDBOX=true for the embedded sandbox';
  }
  if (sandbox === undefined && gatewayUrl === '' && isHttpsUrl(publicUrl)) {
    return 'APS_GATEWAY_URL: empty while PUBLIC_URL is https, which would let the embedded sandbox and its public test card pay real orders; set APS_GATEWAY_URL to the gateway\'s payment page (e.g. https://checkout.payfort.com/FortAPI/paymentPage), or APS_SANDBOX=true if this https deployment is a test one';
  }
  if (sandbox === undefined && gatewayUrl === '' && !isLoopbackUrl(publicUrl)) {
    return `APS_GATEWAY_URL: empty while PUBLIC_URL (${publicUrl}) is not a loopback address, which would let anyone who reaches it pay orders with the embedded sandbox's public test card; set APS_GATEWAY_URL to the gateway's payment page (e.g. https://checkout.payfort.com/FortAPI/paymentPage), or APS_SANDBOX=true if this deployment is a test one`;
  }
  return null;
}

/** What is wrong with DEMO_DATA, or null: demo coupons and agents never run beside a real gateway (RULINGS 27). */
function demoDataProblem(demoData: 'true' | 'false' | undefined, gatewayUrl: string): string | null {
  if (demoData === 'true' && gatewayUrl !== '') {
    return 'DEMO_DATA: true while APS_GATEWAY_URL names a real gateway, which would let the public demo coupons (FREE100, SAVE25 …) and demo agents take real orders; unset DEMO_DATA, or leave APS_GATEWAY_URL empty for the embedded sandbox';
  }
  return null;
}

/**
 * The start-up warning when the embedded sandbox runs where others can reach it (APS_SANDBOX=true
 * on a PUBLIC_URL that is not loopback), or null: its public test card pays any order there, so
 * such a deployment must never take real customers.
 */
export function publicSandboxWarning(config: Pick<Config, 'apsSandbox' | 'publicUrl' | 'demoData'>): string | null {
  if (!config.apsSandbox || isLoopbackUrl(config.publicUrl)) return null;
  const demo = config.demoData ? ', and the demo coupons (FREE100 makes a plan free) and demo agents are active' : '';
  return `APS_SANDBOX is true on ${config.publicUrl}: the embedded sandbox gateway takes the payments, so its public test card pays any order${demo}. Take no real customers here; set APS_GATEWAY_URL for real payments.`;
}

/** The APS phrases: the ones a real gateway must never be signed with at their demo values. */
const APS_PHRASES = new Set(['APS_REQUEST_PHRASE', 'APS_RESPONSE_PHRASE']);

/**
 * Parses the environment once at start. A bad value throws a ConfigError whose message names
 * the variable, so the process can stop with that message rather than run half-configured.
 */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const present = Object.fromEntries(
    Object.keys(envSchema.entries).flatMap((key) => (env[key] === undefined ? [] : [[key, env[key]]])),
  );
  const result = v.safeParse(envSchema, present);
  if (!result.success) {
    const problems = result.issues.map((issue) => {
      const key = issue.path?.[0]?.key;
      return `${String(key ?? 'environment')}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration\n  ${problems.join('\n  ')}`);
  }
  const out = result.output;
  const publicUrl = normaliseUrl(out.PUBLIC_URL ?? `http://localhost:${out.PORT}`);
  const gatewayUrl = out.APS_GATEWAY_URL === '' ? '' : new URL(out.APS_GATEWAY_URL).href;
  const https = isHttpsUrl(publicUrl);
  const sandbox = gatewayUrl === '';
  const config: Config = {
    port: out.PORT,
    host: out.HOST,
    dataDir: path.resolve(out.DATA_DIR),
    databaseUrl: out.DATABASE_URL,
    databasePoolSize: out.DATABASE_POOL_SIZE,
    signingSecret: out.SIGNING_SECRET,
    usingDevSecret: out.SIGNING_SECRET === DEV_SIGNING_SECRET,
    publicUrl,
    mainSiteUrl: normaliseUrl(out.MAIN_SITE_URL),
    apiBaseUrl: out.API_BASE_URL === '' ? '' : normaliseUrl(out.API_BASE_URL),
    logRequests: out.LOG_REQUESTS === 'true',
    insurerApiUrl: normaliseUrl(out.INSURER_API_URL || `http://127.0.0.1:${out.PORT}/insurer-sandbox`),
    hostsInsurerSandbox: !out.INSURER_API_URL,
    insurerTimeoutMs: out.INSURER_TIMEOUT_MS,
    altchaHmacKey: out.ALTCHA_HMAC_KEY,
    botCheck:
      out.BOT_CHECK === 'recaptcha'
        ? {
            mode: 'recaptcha',
            siteKey: out.RECAPTCHA_SITE_KEY,
            secretKey: out.RECAPTCHA_SECRET_KEY,
            verifyUrl: new URL(out.RECAPTCHA_VERIFY_URL).href,
            minScore: out.RECAPTCHA_MIN_SCORE,
            timeoutMs: out.RECAPTCHA_TIMEOUT_MS,
          }
        : { mode: 'altcha' },
    smtpUrl: out.SMTP_URL,
    mailFrom: out.MAIL_FROM,
    outboxDir: path.join(path.resolve(out.DATA_DIR), 'outbox'),
    trustProxy: out.TRUST_PROXY === 'true',
    apsAccessCode: out.APS_ACCESS_CODE,
    apsMerchantIdentifier: out.APS_MERCHANT_IDENTIFIER,
    apsRequestPhrase: out.APS_REQUEST_PHRASE,
    apsResponsePhrase: out.APS_RESPONSE_PHRASE,
    apsShaType: out.APS_SHA_TYPE === 'SHA-512' ? 'sha512' : 'sha256',
    // The gateway URL as the parser writes it: the form action the browser posts to either way.
    apsGatewayUrl: gatewayUrl === '' ? `${publicUrl}${APS_SANDBOX_PAYMENT_PAGE_PATH}` : gatewayUrl,
    apsApiUrl: out.APS_API_URL !== '' ? new URL(out.APS_API_URL).href : sandbox ? `${publicUrl}${APS_SANDBOX_API_PATH}` : null,
    apsSandbox: sandbox,
    demoData: out.DEMO_DATA === undefined ? sandbox : out.DEMO_DATA === 'true',
  };
  const problems: string[] = [];
  for (const variable of secretsAtDevelopmentDefault(config)) {
    if (gatewayUrl !== '' && APS_PHRASES.has(variable)) {
      // Over http too: a real gateway signs real payments, and the demo phrase is in the source.
      problems.push(`${variable}: still the sandbox's development default while APS_GATEWAY_URL names a real gateway; set the phrase from the APS back office (Integration settings)`);
    } else if (https) {
      // Served over https means a real deployment: a development secret there is a hole, not a default.
      problems.push(`${variable}: still the development default while PUBLIC_URL is https; set a secret of your own`);
    }
  }
  if (out.BOT_CHECK === 'recaptcha') {
    for (const variable of ['RECAPTCHA_SITE_KEY', 'RECAPTCHA_SECRET_KEY'] as const) {
      if (out[variable].trim() === '') {
        problems.push(`${variable}: required when BOT_CHECK is recaptcha; take it from your reCAPTCHA v3 site in the reCAPTCHA admin console`);
      }
    }
  }
  const gatewayProblem = apsGatewayProblem(gatewayUrl, out.APS_SANDBOX, publicUrl);
  if (gatewayProblem) problems.push(gatewayProblem);
  const demoProblem = demoDataProblem(out.DEMO_DATA, gatewayUrl);
  if (demoProblem) problems.push(demoProblem);
  if (problems.length > 0) throw new ConfigError(`Invalid configuration\n  ${problems.join('\n  ')}`);
  return config;
}

/** Parses the environment at start; a bad value prints the message naming it and exits with 1. */
export function parseConfigOrExit(env: Record<string, string | undefined>): Config {
  try {
    return parseConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
