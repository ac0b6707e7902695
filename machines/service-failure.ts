import type { ServiceFailure } from './travel-details.types';

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
