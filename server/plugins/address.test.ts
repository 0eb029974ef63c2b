// Addresses as the limits count them: IPv4 as is, IPv6 by /64, IPv4-mapped IPv6 as IPv4.
import { describe, expect, it } from 'vitest';
import { addressKey } from './address.ts';

describe('addressKey', () => {
  it('keeps IPv4, reads IPv4-mapped IPv6 as IPv4 and counts IPv6 by its /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:cb00:7107')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:DB8:1:2:0:0:0:9')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1')).toBe('fe80:0:0:0::/64');
    expect(addressKey('not an address')).toBe('not an address');
  });
});
