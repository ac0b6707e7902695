import { afterAll } from 'vitest';
import { closeIdlePglites } from './pglite-pool';

// A file's pooled test databases (pglite-pool.ts) are closed with it, not left to the next file's worker.
afterAll(closeIdlePglites);
