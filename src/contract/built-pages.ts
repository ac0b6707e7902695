import { STEP_PATHS, stepForPath, type StepId } from '../../machines/journey.routes.ts';

/**
 * Where the build writes each step's pre-rendered page (src/web/prerender), and which one the
 * server answers for an address (issue 19). The entry page, travel details, is index.html; it
 * also answers the root and every address that is no step's, since the app shows travel
 * details there.
 */
export function builtPageFile(step: StepId): string {
  return step === 'travellerDetails' ? 'index.html' : `pages${STEP_PATHS[step]}.html`;
}

/** The built page for a request's path. */
export function builtPageFor(pathname: string): string {
  return builtPageFile(stepForPath(pathname) ?? 'travellerDetails');
}
