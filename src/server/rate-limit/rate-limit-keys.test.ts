import { describe, expect, it } from 'vitest';
import { addressKey } from './client-address';
import { phoneKey } from './phone-key';

describe('the keys the rate limits count under (issue 7 row 4)', () => {
  it('one Lebanese number typed every way customers type it is one key (RULINGS 25)', () => {
    const spellings = ['3555455', '03555455', '03 555 455', '+961 3 555 455', '00961 3 555 455', '(03) 555-455', '٠٣ ٥٥٥ ٤٥٥', '۰۳۵۵۵۴۵۵'];
    expect(new Set(spellings.map((spelling) => phoneKey('+961', spelling)))).toEqual(new Set(['9613555455']));
    expect(phoneKey('+961', '3555456')).not.toBe(phoneKey('+961', '3555455'));
    expect(phoneKey('+33', '3555455')).toBe('333555455');
  });

  it('an IPv4 address is its own key, an IPv4-mapped IPv6 address its IPv4, an IPv6 address its /64', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey(' ::ffff:203.0.113.9 ')).toBe('203.0.113.9');
    expect(addressKey('2001:db8:abcd:12:1:2:3:4')).toBe('2001:db8:abcd:12::/64');
    expect(addressKey('2001:DB8:abcd:0012::99')).toBe('2001:db8:abcd:12::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });

  it('what is not an IP address gives no key (a forged X-Forwarded-For falls back to the socket)', () => {
    expect(addressKey('unknown')).toBeNull();
    expect(addressKey('')).toBeNull();
    expect(addressKey('203.0.113.9:443')).toBeNull();
  });
});
