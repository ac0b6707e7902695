import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { lingui } from '@lingui/vite-plugin';
import { mantinePostcss } from './src/web/theme/postcss-config.ts';

/**
 * The broker's console (issue 36): its own build, so the customer's page (index.html,
 * src/web/main.tsx, vite.config.ts) does not change by one byte and never carries the console.
 * `npm run build` runs it after the customer's build, which empties dist/; its page is
 * dist/broker/index.html, served under /broker. No inline script in the page: the server's CSP
 * allows scripts of this origin only.
 */
const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '8080'}`;
/**
 * The origin the API server takes as its own (its PUBLIC_URL, by default http://localhost:PORT).
 * Sign-in (better-auth) and every change refuse a request whose Origin is another, and in
 * development the page's origin is this dev server's: the proxy says what a page served by the
 * API server itself would, so the console can be worked on with hot reload.
 */
const apiOrigin = new URL(process.env.PUBLIC_URL ?? `http://localhost:${process.env.API_PORT ?? '8080'}`).origin;

export default defineConfig({
  root: fileURLToPath(new URL('./src/web/broker', import.meta.url)),
  base: '/broker/',
  // Nothing is copied as is: the page's one file from outside (the customer's favicon) is a
  // hashed asset under /broker/assets/, the only console files the server serves as files.
  publicDir: false,
  build: {
    outDir: '../../../dist/broker',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 700,
  },
  plugins: [react({ babel: { plugins: ['@lingui/babel-plugin-lingui-macro'] } }), lingui()],
  css: { postcss: mantinePostcss() },

  server: {
    port: 5174,
    proxy: {
      '/broker/api': {
        target: apiTarget,
        changeOrigin: false,
        configure: (proxy) => {
          proxy.on('proxyReq', (request) => {
            if (request.getHeader('origin')) request.setHeader('origin', apiOrigin);
          });
        },
      },
    },
  },
});
