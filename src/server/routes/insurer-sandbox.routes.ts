import { Hono } from 'hono';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/app-env';
import { catalogueSnapshot } from '../quoting/catalogue-snapshot';
import { sandboxAnswer } from '../quoting/insurer-sandbox';

/**
 * The insurer sandbox (RULINGS 10, quoting/insurer-sandbox.ts) at this server's own address,
 * outside the signed API: what tests and any other caller reach. The server itself calls the same
 * sandbox on a thread of its own (quoting/insurer-sandbox-thread.ts, issue 34 item 5). Unsigned,
 * but its body is still the one bodyLimitMiddleware read, bounded to 256 KB while it streamed.
 */
export function insurerSandboxRoutes(db: Db) {
  const app = new Hono<AppEnv>();
  // The insurer's own copy of its plans, refreshed each minute behind the answers (catalogue-snapshot.ts).
  const catalogue = catalogueSnapshot(db, 60_000);
  // Loaded now, before the first customer's quote asks for it (a failure is retried then).
  catalogue().catch(() => undefined);
  app.post('/insurer-sandbox/quote', async (c) => {
    const answer = sandboxAnswer(await catalogue(), c.get('rawBody') ?? '');
    return c.json(answer.body, answer.status);
  });
  return app;
}
