import { bundleStaleness } from './server-bundle';

/**
 * `npm run broker`'s first step, compiled beside the server bundle (dist-server/bundle-check.js)
 * so it runs under plain node: exit 0 when the bundle is current, 1 when it is stale. `npm run
 * broker` then builds it (server-bundle.ts under tsx, which says why on stderr) before it runs the
 * command from it (broker-main.ts), as `npm start` does before it serves (start-check.ts).
 */
process.exit(bundleStaleness() ? 1 : 0);
