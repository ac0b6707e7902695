import * as v from 'valibot';
import path from 'node:path';

/** The development signing key. Browser code carries the key, so it proves integrity only (RULINGS 23). */
export const DEV_SIGNING_SECRET = 'safar-dev-signing-secret-change-me';

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
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string;
  signingSecret: string;
  usingDevSecret: boolean;
  publicUrl: string;
  mainSiteUrl: string;
  apiBaseUrl: string;
  logRequests: boolean;
}

export class ConfigError extends Error {}

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
  const trimSlash = (value: string) => value.replace(/\/+$/, '');
  return {
    port: out.PORT,
    host: out.HOST,
    dataDir: path.resolve(out.DATA_DIR),
    databaseUrl: out.DATABASE_URL,
    signingSecret: out.SIGNING_SECRET,
    usingDevSecret: out.SIGNING_SECRET === DEV_SIGNING_SECRET,
    publicUrl: trimSlash(out.PUBLIC_URL ?? `http://localhost:${out.PORT}`),
    mainSiteUrl: trimSlash(out.MAIN_SITE_URL),
    apiBaseUrl: trimSlash(out.API_BASE_URL),
    logRequests: out.LOG_REQUESTS === 'true',
  };
}
