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

export function readRuntimeConfig(doc: Document = document): RuntimeConfig {
  const content = doc.querySelector('meta[name="safar-config"]')?.getAttribute('content');
  if (!content) return DEFAULTS;
  try {
    const parsed = JSON.parse(content) as Partial<RuntimeConfig>;
    return {
      apiBaseUrl: typeof parsed.apiBaseUrl === 'string' ? parsed.apiBaseUrl : DEFAULTS.apiBaseUrl,
      signingKey: parsed.signingKey || DEFAULTS.signingKey,
      mainSiteUrl: parsed.mainSiteUrl || DEFAULTS.mainSiteUrl,
    };
  } catch {
    return DEFAULTS;
  }
}
