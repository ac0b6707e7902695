import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** The built files a server compresses: scripts, stylesheets and vector images (woff2 is compressed already). */
const COMPRESSIBLE = /\.(js|css|svg)$/;

/**
 * Writes a Brotli (`.br`) and a gzip (`.gz`) copy beside every script, stylesheet and SVG of
 * the client build's assets, compressed once and at their best (issue 19). The server sends
 * the copy the browser accepts (serveStatic's `precompressed`), so no request waits for the
 * file to be compressed, and Brotli's copies are smaller than the gzip a server makes on the
 * fly (the entry: about 15 % less).
 */
export function precompressPlugin(): Plugin {
  let assetsDir = '';
  return {
    name: 'safar-precompress',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(config) {
      assetsDir = path.resolve(config.root, config.build.outDir, config.build.assetsDir);
    },
    closeBundle() {
      for (const name of readdirSync(assetsDir)) {
        if (!COMPRESSIBLE.test(name)) continue;
        const file = path.join(assetsDir, name);
        const bytes = readFileSync(file);
        writeFileSync(`${file}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }));
        writeFileSync(`${file}.gz`, gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION }));
      }
    },
  };
}
