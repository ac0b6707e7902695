import { randomBytes, randomInt } from 'node:crypto';
import { cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import { todayIso } from '../../src/contract/dates';
import { addCustomerLeadEndpoint } from '../../src/contract/lead.endpoints';
import { compareQuotesEndpoint } from '../../src/contract/quote.endpoints';
import { leadBody } from '../integration/lead-fixtures';
import { leadAtCheckoutOverHttp, signedSender, type Send } from '../integration/server-journey-fixtures';
import { ROOT, freePort, startServerProcess, type ServerProcess } from '../support/server-process';

/**
 * The server the bench measures: the built bundle under plain node, as `npm start` runs it, on a
 * free port over the bench's data directory, with a signing secret of its own.
 */
export interface BenchServer {
  base: string;
  secret: string;
  send: Send;
  process: ServerProcess;
  /** The server's resident memory now, from /proc (Linux). */
  rssBytes(): number;
}

export async function startBenchServer(dataDir: string): Promise<BenchServer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const secret = randomBytes(24).toString('hex');
  // A copy of dist/ (current: the bench builds first) so that a build someone runs meanwhile,
  // which empties dist/, does not pull the scripts from under the pages being measured.
  const staticDir = path.join(dataDir, 'static');
  cpSync(path.join(ROOT, 'dist'), staticDir, { recursive: true });
  const child = startServerProcess(
    { PORT: String(port), DATA_DIR: dataDir, SIGNING_SECRET: secret, PUBLIC_URL: base, SAFAR_STATIC_DIR: staticDir },
    { bundle: true },
  );
  await child.listening(120_000);
  return { base, secret, send: signedSender(base, secret), process: child, rssBytes: () => residentBytes(child.child.pid!) };
}

/** VmRSS of a process, in bytes. */
export function residentBytes(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) * 1024;
}

/** A lead as the journey leaves it at the quote list. */
export interface BenchLead {
  uuid: string;
  sessionId: string | null;
}

/**
 * A new lead (two adults to France in ten days) whose quotes were asked for once, so that the
 * quote list afterwards is the "unchanged lead" the issue measures.
 */
export async function leadWithQuotes(send: Send): Promise<BenchLead> {
  const day = (offset: number) => todayIso(Date.now() + offset * 86_400_000);
  const year = Number(day(0).slice(0, 4));
  const saved = await dataOf(
    await send(
      addCustomerLeadEndpoint.path,
      leadBody({
        // Its own e-mail and phone on every run: the per-phone limits of add-customer-lead count leads across runs.
        email: `bench.${randomBytes(4).toString('hex')}@example.com`,
        phone_number: `7${randomInt(1_000_000, 9_999_999)}`,
        start_date: day(10),
        end_date: day(20),
        no_of_traveller: 2,
        travellers_info: [{ dob: `${year - 36}-04-12` }, { dob: `${year - 38}-09-30` }],
      }),
    ),
    addCustomerLeadEndpoint.response,
  );
  await dataOf(await send(compareQuotesEndpoint.path, { uuid: saved.uuid, lang: 'en' }), compareQuotesEndpoint.response);
  return { uuid: saved.uuid, sessionId: saved.session_id ?? null };
}

/** A lead taken through plan choice and traveller review to checkout (the integration tests' journey over HTTP). */
export async function leadAtCheckout(send: Send): Promise<BenchLead> {
  return { uuid: await leadAtCheckoutOverHttp(send), sessionId: null };
}

async function dataOf<S extends v.GenericSchema<unknown, { data: unknown }>>(res: Response, envelope: S): Promise<v.InferOutput<S>['data']> {
  const json: unknown = await res.json();
  if (res.status !== 200) throw new Error(`${res.url} answered ${res.status}: ${JSON.stringify(json).slice(0, 300)}`);
  return v.parse(envelope, json).data;
}
