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
    expect(config).toEqual({ apiBaseUrl: 'https://api.example', signingKey: 'k-from-server', mainSiteUrl: 'https://m.example' });
  });

  it('falls back to the documented development defaults without the tag or with broken JSON', () => {
    for (const doc of [docWith(null), docWith(''), docWith('{broken')]) {
      expect(readRuntimeConfig(doc).signingKey).toBe('safar-dev-signing-secret-change-me');
    }
  });
});
