import type * as v from 'valibot';
import type { Endpoint } from '../../src/contract/endpoint';
import * as reference from '../../src/contract/reference.endpoints';

export type AnyEndpoint = Endpoint<v.GenericSchema, v.GenericSchema>;

/** Every endpoint reference.endpoints.ts declares, so a new one is swept without editing the tests. */
export const REFERENCE_ENDPOINTS = (Object.values(reference) as unknown[]).filter(
  (value): value is AnyEndpoint =>
    typeof value === 'object' && value !== null && 'path' in value && 'request' in value && 'response' in value,
);
