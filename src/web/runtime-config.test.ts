import { describe, expect, it } from 'vitest';
import { readRuntimeConfig, readRuntimeJson } from './runtime-config';
import { botCheckOf } from './services/bot-check.config';

function docWith(content: string | null): Document {
  const doc = document.implementation.createHTMLDocument('t');
  if (content !== null) {
    const meta = doc.createElement('meta');
    meta.name = 'safar-config';
    meta.content = content;
    doc.head.append(meta);
  }
  return doc;
}

describe('readRuntimeConfig', () => {
  it('reads the configuration the server injected', () => {
    const config = readRuntimeConfig(
      docWith(JSON.stringify({ apiBaseUrl: 'https://api.example', signingKey: 'k-from-server', mainSiteUrl: 'https://m.example' })),
    );
    expect(config).toEqual({
      apiBaseUrl: 'https://api.example',
      signingKey: 'k-from-server',
      mainSiteUrl: 'https://m.example',
    });
  });

  it('reads reCAPTCHA mode and its site key (RULINGS 16); without a site key it stays ALTCHA', () => {
    const base = { apiBaseUrl: '', signingKey: 'k', mainSiteUrl: 'https://m.example' };
    const settings = (config: Record<string, unknown>) => botCheckOf(readRuntimeJson(docWith(JSON.stringify({ ...base, ...config }))));
    expect(settings({ botCheck: 'recaptcha', recaptchaSiteKey: 'site-key_1' })).toEqual({ mode: 'recaptcha', siteKey: 'site-key_1' });
    expect(settings({ botCheck: 'recaptcha', recaptchaSiteKey: '' })).toEqual({ mode: 'altcha' });
    expect(settings({ botCheck: 'something' })).toEqual({ mode: 'altcha' });
    expect(botCheckOf(readRuntimeJson(docWith('{broken')))).toEqual({ mode: 'altcha' });
  });

  it('falls back to the documented development defaults without the tag or with broken JSON', () => {
    for (const doc of [docWith(null), docWith(''), docWith('{broken')]) {
      expect(readRuntimeConfig(doc).signingKey).toBe('safar-dev-signing-secret-change-me');
    }
  });
});
