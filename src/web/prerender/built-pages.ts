import { STEP_IDS, STEP_PATHS, type StepId } from '../../../machines/journey.routes.ts';

/** Where the build writes the table of its pages, read by the server (src/server/http/spa.ts). */
export const PAGES_TABLE = 'pages/index.json';

/**
 * The table the server answers addresses from (issue 19): each step's path, lower-cased as
 * stepForPath matches it, to the file of its pre-rendered page; the entry page answers the root
 * and every address that is no step's, since the app shows travel details there.
 */
export interface PagesTable {
  paths: Record<string, string>;
  fallback: string;
}

/** The file of a step's pre-rendered page: index.html for travel details, the entry page. */
export function builtPageFile(step: StepId): string {
  return step === 'travellerDetails' ? 'index.html' : `pages${STEP_PATHS[step]}.html`;
}

export function pagesTable(): PagesTable {
  return {
    paths: Object.fromEntries(STEP_IDS.map((step) => [STEP_PATHS[step].toLowerCase(), builtPageFile(step)])),
    fallback: builtPageFile('travellerDetails'),
  };
}
