/** Configuration the server writes into index.html at run time (see src/server/http/spa.ts). */
export interface RuntimeConfig {
  apiBaseUrl: string;
  signingKey: string;
  mainSiteUrl: string;
  /** RULINGS 16: ALTCHA (the default) or reCAPTCHA v3, which then has its site key. */
  botCheck: 'altcha' | 'recaptcha';
  recaptchaSiteKey: string;
}

/** The documented development defaults, used by `npm run dev` and when the meta tag is absent. */
const DEFAULTS: RuntimeConfig = {
  apiBaseUrl: '',
  signingKey: 'safar-dev-signing-secret-change-me',
  mainSiteUrl: 'https://www.safar.example',
  botCheck: 'altcha',
  recaptchaSiteKey: '',
};

export function readRuntimeConfig(doc: Document = document): RuntimeConfig {
  const content = doc.querySelector('meta[name="safar-config"]')?.getAttribute('content');
  if (!content) return DEFAULTS;
  try {
    const parsed = JSON.parse(content) as Partial<RuntimeConfig>;
    // reCAPTCHA only with a site key to run it with; otherwise the default ALTCHA.
    const siteKey = typeof parsed.recaptchaSiteKey === 'string' ? parsed.recaptchaSiteKey : '';
    const recaptcha = parsed.botCheck === 'recaptcha' && siteKey !== '';
    return {
      apiBaseUrl: typeof parsed.apiBaseUrl === 'string' ? parsed.apiBaseUrl : DEFAULTS.apiBaseUrl,
      signingKey: parsed.signingKey || DEFAULTS.signingKey,
      mainSiteUrl: parsed.mainSiteUrl || DEFAULTS.mainSiteUrl,
      botCheck: recaptcha ? 'recaptcha' : 'altcha',
      recaptchaSiteKey: recaptcha ? siteKey : '',
    };
  } catch {
    return DEFAULTS;
  }
}
