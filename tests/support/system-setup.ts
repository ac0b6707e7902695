import { afterAll } from 'vitest';
import { closeIdlePglites } from './pglite-pool';

// The system project gives each file a module cache of its own (vite.config.ts): a file's pooled
// test databases (pglite-pool.ts) are closed with it, since no later file can reach them.
afterAll(() => closeIdlePglites());
