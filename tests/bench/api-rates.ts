import { createHmac } from 'node:crypto';
import autocannon from 'autocannon';
import { compareQuotesEndpoint } from '../../src/contract/quote.endpoints';
import { countriesEndpoint, vatEndpoint } from '../../src/contract/reference.endpoints';
import { SIGNATURE_HEADERS } from '../../src/contract/signing';
import { atLeast, atMost, ms, percent, perSecond, plain } from './figures';
import { leadWithQuotes, type BenchServer } from './bench-server';

/**
 * Issue 19's rates: each signed call at 50 connections as a share of the static GET of the same
 * server in the same run, since absolute rates on a shared machine move from run to run.
 */

const CONNECTIONS = 50;
const DURATION_SECONDS = 5;

interface Rate {
  /** Answers in 2xx per second. */
  perSecond: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** How long each load runs before it is measured: the first seconds measure the JIT, not the server. */
const WARM_UP_SECONDS = 2;

async function load(options: autocannon.Options): Promise<Rate> {
  // Warm-up, not counted: each call's own path, since the static GET's warms none of a signed one's.
  await autocannon({ connections: CONNECTIONS, duration: WARM_UP_SECONDS, ...options });
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION_SECONDS, ...options });
  // Only answers in 2xx count as served: a fast 401 or 429 is not the rate the issue is about.
  return { perSecond: result['2xx'] / result.duration, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

/**
 * Signed headers for autocannon, which builds each request synchronously, so Node's HMAC stands in
 * for the contract's Web Crypto one (same message: nonce + timestamp + body, RULINGS 23). Every
 * request needs its own nonce; counting up past the clock drifts a few seconds, well inside the skew.
 */
let nonce = 0;
function signer(secret: string) {
  return (body: string): Record<string, string> => {
    // Never one used by an earlier load of this run, even when that one ran ahead of the clock.
    nonce = Math.max(nonce + 1, Date.now());
    const timestamp = String(Math.floor(nonce / 1000));
    const signature = createHmac('sha256', secret).update(`${nonce}${timestamp}${body}`).digest('hex');
    return {
      'content-type': 'application/json',
      [SIGNATURE_HEADERS.nonce]: String(nonce),
      [SIGNATURE_HEADERS.timestamp]: timestamp,
      [SIGNATURE_HEADERS.signature]: signature,
    };
  };
}

function signedPost(server: BenchServer, path: string, body: unknown): autocannon.Options {
  const sign = signer(server.secret);
  const text = body === undefined ? '' : JSON.stringify(body);
  return {
    url: `${server.base}${path}`,
    method: 'POST',
    requests: [{ setupRequest: (request) => ({ ...request, ...(text ? { body: text } : {}), headers: sign(text) }) }],
  };
}

const rateDetail = (rate: Rate) =>
  `${perSecond(rate.perSecond)}, p99 ${rate.p99} ms${rate.non2xx || rate.errors ? `, ${rate.non2xx} non-2xx and ${rate.errors} errors (not counted)` : ''}`;

/** Runs the four loads and reports them; the signed ones against the static rate. */
export async function measureApiRates(server: BenchServer): Promise<void> {
  // Made before the loads: its calls sign with the clock's nonces, which the loads run ahead of.
  const lead = await leadWithQuotes(server.send);
  const page = { url: `${server.base}/traveller-details`, headers: { 'accept-encoding': 'gzip' } };
  const staticRate = await load(page);
  plain(`static GET of the SPA (${CONNECTIONS} connections)`, perSecond(staticRate.perSecond), `p99 ${staticRate.p99} ms`);

  const share = (rate: Rate) => rate.perSecond / staticRate.perSecond;

  const vat = await load(signedPost(server, vatEndpoint.path, undefined));
  atLeast('signed get-vat, share of the static rate', share(vat), 0.6, percent, rateDetail(vat));

  const countries = await load(signedPost(server, countriesEndpoint.path, { lang: 'ar', isDropdown: true }));
  atLeast('signed countries, share of the static rate', share(countries), 0.5, percent, rateDetail(countries));

  const quotes = await load(signedPost(server, compareQuotesEndpoint.path, { uuid: lead.uuid, lang: 'en' }));
  atLeast('compare-quotes, unchanged lead, share of the static rate', share(quotes), 0.3, percent, rateDetail(quotes));
  atMost('compare-quotes, unchanged lead, p99', quotes.p99, 50, ms);
}
