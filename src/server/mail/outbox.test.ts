import { describe, expect, it } from 'vitest';
import { DeliveryRefusedError, isOutage, MAX_POLL_BACKOFF_MS, pollWaitMs } from './outbox';

/** An error as node-postgres raises it, wrapped as drizzle wraps a failed query. */
const failedQuery = (code: string) => new Error('Failed query: insert into "mail_log" …', { cause: Object.assign(new Error('database says no'), { code }) });

describe('isOutage: what waits an outage out instead of spending an attempt', () => {
  it.each([
    ['ENOSPC from the .eml write', Object.assign(new Error('no space left on device'), { code: 'ENOSPC' })],
    ['EDQUOT from the .eml write', Object.assign(new Error('disk quota exceeded'), { code: 'EDQUOT' })],
    ['ENOSPC as the cause of a wrapping error', new Error('mail: could not write', { cause: Object.assign(new Error('full'), { code: 'ENOSPC' }) })],
    ['53100 disk full, from the database', failedQuery('53100')],
    ['53300 too many connections', failedQuery('53300')],
    ['57P01 admin shutdown (pg_ctl stop)', failedQuery('57P01')],
    ['57P03 the database starting up', failedQuery('57P03')],
    ['08006 connection failure', failedQuery('08006')],
    ['our notification endpoint answering 503', new DeliveryRefusedError('HTTP 503', true)],
  ])('%s is an outage', (_what, error) => {
    expect(isOutage(error)).toBe(true);
  });

  it.each([
    ['an SMTP server refusing the connection (the far side is down: attempts count)', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })],
    ['the notification endpoint answering 500', new DeliveryRefusedError('HTTP 500')],
    ['a unique violation', failedQuery('23505')],
    ['57014 a query cancelled', failedQuery('57014')],
    ['a plain error', new TypeError('fetch failed')],
    ['not an error at all', 'ENOSPC'],
  ])('%s is not', (_what, error) => {
    expect(isOutage(error)).toBe(false);
  });
});

describe('pollWaitMs: the poll backs off while the database is away', () => {
  it('is pollMs while polls work, doubles with each failure in a row, and stops at MAX_POLL_BACKOFF_MS', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 100].map((failures) => pollWaitMs(1000, failures))).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000, 10_000, 10_000, 10_000]);
    expect(MAX_POLL_BACKOFF_MS).toBe(10_000);
  });

  it('never waits less than pollMs, whatever pollMs is', () => {
    expect(pollWaitMs(30_000, 3)).toBe(30_000);
    expect(pollWaitMs(20, 1)).toBe(40);
  });
});
