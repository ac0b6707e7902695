import type { ShowRouteParams } from '../../../machines/journey.types';

/**
 * The address for a step: its path, with the current query kept (spec §2) and the lead's
 * uuid and sid written in, or removed when the journey has no lead.
 */
export function routeLocation(params: ShowRouteParams, currentSearch: string): { pathname: string; search: string } {
  const query = new URLSearchParams(currentSearch);
  if (params.uuid) query.set('uuid', params.uuid);
  else query.delete('uuid');
  query.delete('session_id');
  if (params.uuid && params.sessionId) query.set('sid', params.sessionId);
  else query.delete('sid');
  const search = query.toString();
  return { pathname: params.path, search: search ? `?${search}` : '' };
}
