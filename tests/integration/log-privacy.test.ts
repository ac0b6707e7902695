import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { afterEach, describe, expect, it } from 'vitest';
import { addDays, todayIso } from '../../src/contract/dates';
import { addCustomerLeadEndpoint, personalDetailsEndpoint } from '../../src/contract/lead.endpoints';
import { compareQuotesEndpoint } from '../../src/contract/quote.endpoints';
import type { ErrorLogLine } from '../../src/server/http/error-handler';
import { freePort, startServerProcess, type ServerProcess } from '../support/server-process';
import { signedHeaders } from '../support/signed-request';
import { emptyPglite } from '../support/test-db';
import { leadBody } from './lead-fixtures';
import { CUSTOMER, PERSONAL } from './personal-fixtures';

/**
 * Issue 7 row 2, on a real server process (a system test, tests/support/system-tests.ts): after a
 * journey in which the database refuses a row and then goes away, the server's log holds no
 * personal data. The in-process rows of issue 7 are in hardening.test.ts.
 */

describe("row 2: the server's log holds no personal data", () => {
  const SECRET = 'hardening-test-signing-secret-0123456789';
  let pglite: PGlite | undefined;
  let wire: PGLiteSocketServer | undefined;
  let server: ServerProcess | undefined;
  const dirs: string[] = [];

  afterEach(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await wire?.stop();
    await pglite?.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it(
    'after a journey where the database refuses a row and then goes away (the edge of the world), the log has the error lines with request ids and no name, e-mail, phone or passport',
    async () => {
      pglite = await emptyPglite();
      wire = new PGLiteSocketServer({ db: pglite, host: '127.0.0.1', port: 0, maxConnections: 20 });
      await wire.start();
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'safar-hardening-'));
      dirs.push(dataDir);
      const port = await freePort();
      server = startServerProcess({
        PORT: String(port),
        DATA_DIR: dataDir,
        DATABASE_URL: `postgres://postgres@${wire.getServerConn()}/postgres`,
        // pglite-socket is safe with one connection only: outside a transaction it interleaves two
        // connections' extended-protocol messages on PGlite's one backend (a nonce insert then
        // reads another query's empty result: 401 nonce_reused).
        DATABASE_POOL_SIZE: '1',
        LOG_REQUESTS: 'true',
        SIGNING_SECRET: SECRET,
        SAFAR_STATIC_DIR: '',
      });
      await server.listening();

      const send = async (apiPath: string, body: unknown) => {
        const text = JSON.stringify(body);
        const res = await fetch(`http://127.0.0.1:${port}${apiPath}?email=${encodeURIComponent(CUSTOMER.email)}`, {
          method: 'POST',
          body: text,
          headers: await signedHeaders(SECRET, text),
        });
        return { status: res.status, requestId: res.headers.get('x-request-id'), json: (await res.json()) as { data: Record<string, unknown> } };
      };
      const start = addDays(todayIso(), 30);
      // The fixtures' trip, on this real server's clock.
      const lead = (name: string, email: string, phone: string) =>
        leadBody({ name, email, phone_number: phone, start_date: start, end_date: addDays(start, 9) });

      // The journey: a named customer saves a lead, reads it back and compares quotes.
      const saved = await send(addCustomerLeadEndpoint.path, lead(CUSTOMER.name, CUSTOMER.email, CUSTOMER.phone));
      expect(saved.status).toBe(200);
      const uuid = saved.json.data.uuid as string;
      expect((await send(personalDetailsEndpoint.path, { uuid, lang: 'en' })).status).toBe(200);
      expect((await send(compareQuotesEndpoint.path, { uuid, lang: 'en' })).status).toBe(200);

      // The database refuses any new customer row: the driver's error quotes the row, Drizzle's the parameters.
      await pglite.exec(`alter table customers add constraint hardening_refuses_rows check (false) not valid`);
      const refused = await send(addCustomerLeadEndpoint.path, lead(`${CUSTOMER.name} Jr`, `junior.${CUSTOMER.email}`, '71987655'));
      expect(refused.status).toBe(500);
      expect(refused.json.data).toEqual({ request_id: refused.requestId });

      // Then the database goes away mid-journey: every call fails with a real connection error,
      // answered 503 service_unavailable (issue 18 item 4), never 500.
      await wire.stop();
      const gone = await send(addCustomerLeadEndpoint.path, { ...lead(CUSTOMER.name, CUSTOMER.email, CUSTOMER.phone), passport: CUSTOMER.passport });
      expect(gone.status).toBe(503);
      expect(gone.json.data).toEqual({ request_id: gone.requestId });

      const stopped = await server.stop();
      const log = server.stdout() + server.stderr();
      for (const value of PERSONAL) expect(log).not.toContain(value);
      expect(log).not.toContain('junior.');
      const errorLines = log
        .split('\n')
        .filter((line) => line.includes('"event":"error"') || line.includes('"event":"database_unavailable"'))
        .map((line) => JSON.parse(line) as ErrorLogLine);
      expect(errorLines).toContainEqual({
        event: 'error',
        request_id: refused.requestId,
        method: 'POST',
        route: addCustomerLeadEndpoint.path,
        error: 'DrizzleQueryError',
        code: '23514',
      });
      expect(errorLines).toContainEqual(
        expect.objectContaining({ event: 'database_unavailable', request_id: gone.requestId, method: 'POST', route: addCustomerLeadEndpoint.path }),
      );
      // The request log has paths only: no query string.
      expect(log).toContain(`"path":"${addCustomerLeadEndpoint.path}"`);
      expect(stopped.code).not.toBeNull();
    },
    150_000,
  );
});
