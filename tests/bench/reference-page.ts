import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { mantinePostcss } from '../../src/web/theme/postcss-config';

/**
 * The bench's reference page (issue 38 item 5): tests/bench/reference-page/, a bare React +
 * Mantine form, built by the bench itself with Vite and served gzipped (as Safar's server serves
 * its own files) from a server of its own. Its main-thread time under Lighthouse's mobile profile
 * is what React and Mantine alone cost on this host: the yardstick each page's blocking time is
 * divided by, so figures from a slow host and a fast one can be compared.
 */
export interface ReferencePage {
  url: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css' };

export async function startReferencePage(): Promise<ReferencePage> {
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'safar-reference-page-'));
  await build({
    configFile: false,
    logLevel: 'warn',
    root: path.join(import.meta.dirname, 'reference-page'),
    plugins: [react()],
    css: { postcss: mantinePostcss() },
    build: { outDir, emptyOutDir: true, modulePreload: false },
  });
  const server: Server = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://reference').pathname;
    const file = path.join(outDir, pathname === '/' ? 'index.html' : path.normalize(pathname).replace(/^(\.\.[/\\])+/, ''));
    readFile(file).then(
      (body) => {
        response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'content-encoding': 'gzip', 'cache-control': 'no-cache' });
        response.end(gzipSync(body));
      },
      () => {
        response.writeHead(404).end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
