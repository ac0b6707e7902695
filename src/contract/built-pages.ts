import * as v from 'valibot';

/**
 * The table of the web app's pre-rendered pages (issue 19), which the build writes
 * (src/web/prerender/built-pages.ts) and the server answers addresses from
 * (src/server/http/spa.ts): a step's path, lower-cased as the route table matches it, to the
 * file of its page, and the entry page for the root and every other address.
 */
export const PAGES_TABLE = 'pages/index.json';

/**
 * `prefixes`: the pages of addresses that carry a token after a fixed start (a policy's page,
 * /policy/<token>, issue 37), by that start, lower-cased, with its trailing slash.
 */
export const pagesTableSchema = v.object({ paths: v.record(v.string(), v.string()), prefixes: v.optional(v.record(v.string(), v.string()), {}), fallback: v.string() });

export type PagesTable = v.InferOutput<typeof pagesTableSchema>;
