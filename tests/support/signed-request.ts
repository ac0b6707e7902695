import { SIGNATURE_HEADERS, signRequest } from '../../src/contract/signing';

/** The headers of a signed JSON API request (RULINGS 23) for the exact body text sent. */
export async function signedHeaders(key: string, text: string, nowMs = Date.now()): Promise<Record<string, string>> {
  const parts = await signRequest(key, text, nowMs);
  return {
    'content-type': 'application/json',
    [SIGNATURE_HEADERS.nonce]: parts.nonce,
    [SIGNATURE_HEADERS.timestamp]: parts.timestamp,
    [SIGNATURE_HEADERS.signature]: parts.signature,
  };
}
