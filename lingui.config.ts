import { defineConfig } from '@lingui/cli';
import { formatter } from '@lingui/format-po';

export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'ar'],
  fallbackLocales: { default: 'en' },
  catalogs: [
    { path: '<rootDir>/locales/{locale}/messages', include: ['src/web'], exclude: ['src/web/broker/**', '**/*.test.ts', '**/*.test.tsx'] },
    // The broker's console (src/web/broker): a catalogue of its own, never loaded by the customer's app.
    { path: '<rootDir>/locales/{locale}/broker', include: ['src/web/broker'], exclude: ['**/*.test.ts', '**/*.test.tsx'] },
  ],
  format: formatter({ lineNumbers: false }),
});
