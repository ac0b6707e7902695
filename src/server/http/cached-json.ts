import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Context } from 'hono';

/** A JSON answer worked out once: its text, its gzip and its entity tag. */
export interface CachedJson {
  text: string;
  gzip: Uint8Array<ArrayBuffer>;
  /** Strong: a hash of the text (the gzip is sent under the weak form, as hono/compress does). */
  etag: string;
}

/** Serialises, compresses and tags a body once, for answers served from memory many times. */
export function cachedJson(body: unknown): CachedJson {
  const text = JSON.stringify(body);
  return { text, gzip: new Uint8Array(gzipSync(text)), etag: `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"` };
}

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/** If-None-Match names this tag (weak comparison, RFC 9110 13.1.2), or is `*`. */
function notModified(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === etag);
}

/** Whether Accept-Encoding takes gzip (a `gzip;q=0` refuses it). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (name !== 'gzip' && name !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  });
}

/**
 * Sends a cached JSON answer with its ETag: 304 without a body when the caller already holds
 * it (If-None-Match), else the text, gzipped from memory when the caller takes gzip (so the
 * compress middleware, which leaves an encoded answer alone, does not compress it again).
 * The API's POSTs are reads here (reference data), so a 304 answers them as it would a GET.
 */
export function sendCachedJson(c: Context, cached: CachedJson): Response {
  const gzip = acceptsGzip(c.req.header('accept-encoding'));
  const etag = gzip ? `W/${cached.etag}` : cached.etag;
  c.header('ETag', etag);
  c.header('Vary', 'Accept-Encoding');
  if (notModified(c.req.header('if-none-match'), cached.etag)) return c.body(null, 304);
  c.header('Content-Type', 'application/json');
  if (!gzip) return c.body(cached.text, 200);
  c.header('Content-Encoding', 'gzip');
  return c.body(cached.gzip, 200);
}
