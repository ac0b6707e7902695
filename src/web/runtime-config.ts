/** Configuration the server writes into index.html at run time (see src/server/http/spa.ts). */
export interface RuntimeConfig {
  apiBaseUrl: string;
  signingKey: string;
  mainSiteUrl: string;
}

/** The documented development defaults, used by `npm run dev` and when the meta tag is absent. */
const DEFAULTS: RuntimeConfig = {
  apiBaseUrl: '',
  signingKey: 'safar-dev-signing-secret-change-me',
  mainSiteUrl: 'https://www.safar.example',
};

/**
 * The JSON the server injected (the `safar-config` meta tag), or null without the tag or with
 * broken JSON. Lazy parts of the app read their own settings from it (the bot check), so the
 * first load carries only what the shell needs.
 */
export function readRuntimeJson(doc: Document = document): Record<string, unknown> | null {
  const content = doc.querySelector('meta[name="safar-config"]')?.getAttribute('content');
  if (!content) return null;
  try {
    const parsed: unknown = JSON.parse(content);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function readRuntimeConfig(doc: Document = document): RuntimeConfig {
  const parsed = readRuntimeJson(doc) as Partial<RuntimeConfig> | null;
  if (!parsed) return DEFAULTS;
  return {
    apiBaseUrl: typeof parsed.apiBaseUrl === 'string' ? parsed.apiBaseUrl : DEFAULTS.apiBaseUrl,
    signingKey: parsed.signingKey || DEFAULTS.signingKey,
    mainSiteUrl: parsed.mainSiteUrl || DEFAULTS.mainSiteUrl,
  };
}
