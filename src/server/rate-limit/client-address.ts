import { isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * The key of requests that came without a socket (in-process `app.request()` in tests): they
 * all share one count, like callers behind one address.
 */
export const NO_SOCKET_ADDRESS = 'no-socket';

/** The first four groups of an IPv6 address: one customer's network gets a whole /64. */
function ipv6Prefix64(address: string): string {
  const [head = '', tail] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

/**
 * The address key of a client: IPv4 as is (an IPv4-mapped IPv6 address as its IPv4), IPv6 by its
 * /64, since one subscriber is given a whole /64 and could otherwise rotate addresses inside it.
 * Null when `raw` is not an IP address.
 */
export function addressKey(raw: string): string | null {
  const address = raw.trim().replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  const kind = isIP(address);
  if (kind === 4) return address;
  if (kind === 6) return ipv6Prefix64(address.toLowerCase());
  return null;
}

/**
 * Who is calling, for the per-address limits. The socket's remote address, or with `trustProxy`
 * (TRUST_PROXY=true, for a reverse proxy in front) the right-most X-Forwarded-For entry: the one
 * our proxy appended, which the caller cannot choose; entries to its left can be forged.
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1);
    const key = forwarded ? addressKey(forwarded) : null;
    if (key) return key;
  }
  let remote: string | undefined;
  try {
    remote = getConnInfo(c).remote.address;
  } catch {
    // No Node socket behind this request (app.request() in tests).
    remote = undefined;
  }
  return (remote && addressKey(remote)) || NO_SOCKET_ADDRESS;
}
