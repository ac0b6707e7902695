import { DrizzleQueryError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { errorFacts, type ErrorLogLine } from '../http/error-handler';
import { databaseUnavailableCode } from './database-health';
import { asDiskFull, createResourceWatch, DiskFullError, noteResourceFailures, resourceExhaustion, RESOURCE_WINDOW_MS } from './resource-health';

/** Issue 34 item 3: which failures are a full disk or another lack of resources, and how long readiness remembers one. */

const pgError = (code: string, text = 'failed') => Object.assign(new Error(text), { code });
const wrapped = (cause: unknown) => new DrizzleQueryError('insert into "leads" (…) values (…)', [], cause as Error);

describe('resourceExhaustion', () => {
  it('takes PostgreSQL class 53 but 53300 (too many connections, which is "unavailable") as a lack of resources, through Drizzle\'s wrapper', () => {
    expect(resourceExhaustion(wrapped(pgError('53100')))).toEqual({ code: '53100', reason: 'disk_full' });
    for (const code of ['53000', '53200', '53400']) expect(resourceExhaustion(wrapped(pgError(code)))).toEqual({ code, reason: 'insufficient_resources' });
    expect(resourceExhaustion(wrapped(pgError('53300')))).toBeNull();
    expect(databaseUnavailableCode(wrapped(pgError('53300')))).toBe('53300');
  });

  it('takes the file system\'s ENOSPC and EDQUOT, PGlite\'s Emscripten errors (51, 19; not 28, which is EINVAL there) and a bare "No space left on device" as a full disk', () => {
    expect(resourceExhaustion(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }))).toEqual({ code: 'ENOSPC', reason: 'disk_full' });
    expect(resourceExhaustion(Object.assign(new Error('EDQUOT: disk quota exceeded, write'), { code: 'EDQUOT' }))).toEqual({ code: 'EDQUOT', reason: 'disk_full' });
    expect(resourceExhaustion({ name: 'ErrnoError', errno: 51 })).toEqual({ code: 'ENOSPC', reason: 'disk_full' });
    expect(resourceExhaustion({ name: 'ErrnoError', errno: 19 })).toEqual({ code: 'EDQUOT', reason: 'disk_full' });
    expect(resourceExhaustion({ name: 'ErrnoError', errno: 28 })).toBeNull();
    expect(resourceExhaustion(new Error('could not write to file "pg_wal/xlogtemp.42": No space left on device'))).toEqual({ code: 'ENOSPC', reason: 'disk_full' });
  });

  it('leaves a query\'s own errors, the database away and plain bugs alone', () => {
    for (const error of [wrapped(pgError('23505')), pgError('57P01'), new TypeError('x is undefined'), null, 'text']) expect(resourceExhaustion(error)).toBeNull();
  });
});

describe('DiskFullError', () => {
  it('turns a file system ENOSPC into an error whose class says so and whose code is logged, and leaves other errors as they are', () => {
    const fsError = Object.assign(new Error('ENOSPC: no space left on device, write \'/data/outbox/x.eml\''), { code: 'ENOSPC' });
    const full = asDiskFull(fsError);
    expect(full).toBeInstanceOf(DiskFullError);
    expect(errorFacts(full)).toEqual({ error: 'DiskFullError', code: 'ENOSPC' });
    expect((full as Error).cause).toBe(fsError);
    const other = Object.assign(new Error('EACCES'), { code: 'EACCES' });
    expect(asDiskFull(other)).toBe(other);
  });
});

describe('the resource watch behind /health/ready', () => {
  it('is not ready for RESOURCE_WINDOW_MS after the last failure that lacked resources, each new one renewing it, and a full disk outranks another resource', () => {
    let now = 1_000_000;
    const watch = createResourceWatch(() => now);
    expect(watch.reason()).toBeNull();
    watch.note('23505');
    watch.note(undefined);
    expect(watch.reason()).toBeNull();
    watch.note('53100');
    now += RESOURCE_WINDOW_MS - 1;
    watch.note('53200');
    expect(watch.reason()).toBe('disk_full');
    now += RESOURCE_WINDOW_MS - 1;
    expect(watch.reason()).toBe('insufficient_resources');
    now += 1;
    expect(watch.reason()).toBeNull();
  });

  it('learns from every error line with a code, whatever its event, and still writes the line', () => {
    const watch = createResourceWatch(() => 0);
    const written: ErrorLogLine[] = [];
    const log = noteResourceFailures((line) => written.push(line), watch);
    log({ event: 'policy_mail_failed', policy_id: null, outbox_id: 3, attempt: 1, final: false, error: 'DiskFullError', code: 'ENOSPC' });
    expect(watch.reason()).toBe('disk_full');
    expect(written).toHaveLength(1);
  });
});
