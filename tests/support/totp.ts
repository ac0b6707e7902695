import { createHmac } from 'node:crypto';

/**
 * What an authenticator app does with the console's QR code (RFC 6238, SHA-1, 6 digits, 30 s):
 * written here from the RFC, not borrowed from the login library, so a test that signs in with it
 * proves the otpauth:// URI works in a real app.
 */
function base32Bytes(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of text.replace(/=+$/, '').toUpperCase()) {
    const value = alphabet.indexOf(char);
    if (value < 0) throw new Error(`not base32: ${char}`);
    bits += value.toString(2).padStart(5, '0');
  }
  const bytes: number[] = [];
  for (let index = 0; index + 8 <= bits.length; index += 8) bytes.push(Number.parseInt(bits.slice(index, index + 8), 2));
  return Buffer.from(bytes);
}

/** The code an authenticator shows for `otpauthUri` at `nowMs` (steps: 30 s periods later or earlier). */
export function totpCode(otpauthUri: string, nowMs = Date.now(), steps = 0): string {
  const secret = new URL(otpauthUri).searchParams.get('secret');
  if (!secret) throw new Error('the URI has no secret');
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(nowMs / 30_000) + steps));
  const digest = createHmac('sha1', base32Bytes(secret)).update(counter).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  const value = (digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(value).padStart(6, '0');
}
