import { STEP_IDS, STEP_PATHS, type StepId } from '../../../machines/journey.routes.ts';
import type { PagesTable } from '../../contract/built-pages.ts';

/** The file of a step's pre-rendered page: index.html for travel details, the entry page. */
export function builtPageFile(step: StepId): string {
  return step === 'travellerDetails' ? 'index.html' : `pages${STEP_PATHS[step]}.html`;
}

/** The table of every step's page; the entry page answers the root and every other address, where the app shows travel details. */
export function pagesTable(): PagesTable {
  return {
    paths: Object.fromEntries(STEP_IDS.map((step) => [STEP_PATHS[step].toLowerCase(), builtPageFile(step)])),
    // A policy's page is /policy/<token>: every address under it gets the policy page's outline.
    prefixes: { [`${STEP_PATHS.policy}/`]: builtPageFile('policy') },
    fallback: builtPageFile('travellerDetails'),
  };
}
