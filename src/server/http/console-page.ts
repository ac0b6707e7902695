import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Context } from 'hono';

/**
 * The broker's console page (issue 36 item 1): dist/broker/index.html, its own Vite build
 * (vite.broker.config.ts), answered for every console path so the console's router shows the
 * screen. Read once; never indexed, never cached stale (its scripts are hashed files).
 */
export function consolePage(staticDir: string) {
  let html: string | null = null;
  return (c: Context) => {
    try {
      html ??= readFileSync(path.join(staticDir, 'broker', 'index.html'), 'utf8');
    } catch {
      return c.text('The console is not built yet: run npm run build (npm start does it for you).', 503);
    }
    c.header('Cache-Control', 'no-cache');
    c.header('X-Robots-Tag', 'noindex, nofollow');
    return c.html(html);
  };
}
