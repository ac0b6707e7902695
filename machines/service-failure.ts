import type { ServiceFailure } from './travel-details/travel-details.types';

/**
 * Reading a failed call inside a step machine. The web's ApiError has the ServiceFailure shape
 * (kind, status and the error envelope); test stubs reject with plain objects of it.
 */

/** The failure as a ServiceFailure, or null for anything else (a bug, a plain Error). */
export function asFailure(error: unknown): ServiceFailure | null {
  if (typeof error !== 'object' || error === null || !('status' in error)) return null;
  return error as ServiceFailure;
}

/** The field codes (data.errors) of a refusal with this status, or null. */
export function errorsOf(error: unknown, status: number): Record<string, string> | null {
  const failure = asFailure(error);
  if (failure?.status !== status) return null;
  return failure.body?.data.errors ?? null;
}

/**
 * Why a step could not read its lead: no lead has the uuid in the address (the server answers
 * 404, or refuses the uuid itself as malformed), so Refresh cannot help and the page offers a new
 * quote; or the read failed (network, server), which Refresh may mend.
 */
export type LoadFailure = 'lead_not_found' | 'load_failed';

/** The one mapping of a failed lead read, shared by the quotes, review and checkout machines. */
export function loadFailureOf(error: unknown): LoadFailure {
  const failure = asFailure(error);
  if (failure?.status === 404) return 'lead_not_found';
  if (failure?.status === 422 && failure.body?.data.errors && 'uuid' in failure.body.data.errors) return 'lead_not_found';
  return 'load_failed';
}

/** The step's failed read named no lead we know: "We could not find this quote", not the refresh view. */
export const selectLeadNotFound = (snapshot: { context: { failure: string | null } }): boolean =>
  snapshot.context.failure === 'lead_not_found';
