import { afterAll } from 'vitest';
import { closeIdlePglites } from './pglite-pool';

/**
 * The server project's files share their worker's module cache (vite.config.ts), and with it the
 * pool of test databases (pglite-pool.ts): after a file, a few idle databases stay for the next
 * file of the worker, each already put back as the template left it.
 */
const KEPT_FOR_THE_NEXT_FILE = 3;

afterAll(() => closeIdlePglites(KEPT_FOR_THE_NEXT_FILE));
