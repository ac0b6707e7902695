import type { ShowRouteParams } from '../../../machines/journey.types';

/**
 * The address for a step: its path, with the current query kept (spec §2) and the lead's
 * uuid and sid written in, or removed when the journey has no lead. `ref` (the payment attempt
 * the gateway answered) belongs to /payment-result only: "Try again" leaves it behind.
 */
export function routeLocation(params: ShowRouteParams, currentSearch: string): { pathname: string; search: string } {
  const query = new URLSearchParams(currentSearch);
  if (params.step !== 'paymentResult') query.delete('ref');
  if (params.uuid) query.set('uuid', params.uuid);
  else query.delete('uuid');
  query.delete('session_id');
  if (params.uuid && params.sessionId) query.set('sid', params.sessionId);
  else query.delete('sid');
  const search = query.toString();
  return { pathname: params.path, search: search ? `?${search}` : '' };
}

/**
 * The address bar's path with runs of slashes collapsed. `//traveller-details` would otherwise
 * be read by history.replaceState and the router as a protocol-relative URL of another origin
 * (a SecurityError and a blank page); collapsed, an odd path is an ordinary unknown path, which
 * the journey sends to /traveller-details (spec §2).
 */
export function normalisedPath(pathname: string): string {
  return `/${pathname.replace(/\/{2,}/g, '/').replace(/^\//, '')}`;
}

/** The trip types `insurance_type` may name (RULINGS 6: 1 single trip, 2 annual multi-trip). */
export type InsuranceType = 1 | 2;

/** `insurance_type` of the query (spec §2), or null when absent or not a known trip type. */
export function insuranceTypeOf(search: string): InsuranceType | null {
  const value = new URLSearchParams(search).get('insurance_type')?.trim();
  return value === '1' ? 1 : value === '2' ? 2 : null;
}

/** The query with `insurance_type` written (spec §2: "written when the insurance type changes"), the rest kept. */
export function withInsuranceType(search: string, type: InsuranceType): string {
  const query = new URLSearchParams(search);
  query.set('insurance_type', String(type));
  return `?${query.toString()}`;
}
