import { describe, expect, it } from 'vitest';
import { readRuntimeConfig } from './runtime-config';

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
      botCheck: 'altcha',
      recaptchaSiteKey: '',
    });
  });

  it('reads reCAPTCHA mode and its site key (RULINGS 16); without a site key it stays ALTCHA', () => {
    const base = { apiBaseUrl: '', signingKey: 'k', mainSiteUrl: 'https://m.example' };
    expect(readRuntimeConfig(docWith(JSON.stringify({ ...base, botCheck: 'recaptcha', recaptchaSiteKey: 'site-key_1' })))).toMatchObject({
      botCheck: 'recaptcha',
      recaptchaSiteKey: 'site-key_1',
    });
    expect(readRuntimeConfig(docWith(JSON.stringify({ ...base, botCheck: 'recaptcha', recaptchaSiteKey: '' })))).toMatchObject({
      botCheck: 'altcha',
      recaptchaSiteKey: '',
    });
    expect(readRuntimeConfig(docWith(JSON.stringify({ ...base, botCheck: 'something' }))).botCheck).toBe('altcha');
  });

  it('falls back to the documented development defaults without the tag or with broken JSON', () => {
    for (const doc of [docWith(null), docWith(''), docWith('{broken')]) {
      expect(readRuntimeConfig(doc).signingKey).toBe('safar-dev-signing-secret-change-me');
    }
  });
});
