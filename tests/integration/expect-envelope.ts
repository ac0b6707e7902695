import * as v from 'valibot';
import { expect } from 'vitest';
import { errorEnvelopeSchema, type ErrorEnvelope } from '../../src/contract/envelope';

/** Arabic script: proves a text was really translated, not merely passed through. */
export const ARABIC = /[\u0600-\u06FF]/;

/**
 * Reads a refusal and checks it is the RULINGS 2 error envelope: JSON, `status` equal to the
 * HTTP status, a human-readable message, and field codes under data.errors.
 */
export async function expectErrorEnvelope(res: Response, status: number): Promise<ErrorEnvelope> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/);
  return expectErrorBody(await res.json(), status);
}

/** The same checks on a body already read. */
export function expectErrorBody(json: unknown, status: number): ErrorEnvelope {
  const body = v.parse(errorEnvelopeSchema, json);
  expect(body.status).toBe(status);
  expect(body.message.trim().length).toBeGreaterThan(0);
  return body;
}

/** Reads a refusal and returns its field -> code map. */
export async function errorCodes(res: Response, status: number): Promise<Record<string, string>> {
  const body = await expectErrorEnvelope(res, status);
  return body.data.errors ?? {};
}
