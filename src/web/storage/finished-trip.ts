import { storeThankYou } from './journey-flags';
import { dropReloadDraft } from './reload-draft';

/**
 * A trip paid or issued (checkout's order with nothing to pay, a paid result): its thank-you flag
 * is stored (journey-flags.ts), and the review's unsaved typing a reload would have restored, its
 * names and passport numbers, goes with the journey (issue 38).
 */
export function storeTripFinished(uuid: string): void {
  storeThankYou(uuid);
  dropReloadDraft();
}
