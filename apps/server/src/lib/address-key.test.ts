import { describe, expect, it } from 'vitest';
import { addressKey } from './address-key.ts';

/** Issue 24: per-address limits count an IPv6 client by its /64, which one subscriber holds whole. */
describe('addressKey', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['::FFFF:cb00:7109', '203.0.113.9'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:0000:0000:0000:0001', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:db8:1:3::1', '2001:db8:1:3::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['[2001:db8:1:2::9]', '2001:db8:1:2::/64'],
    ['64:ff9b::203.0.113.9', '64:ff9b:0:0::/64'],
  ])('%s → %s', (ip, key) => {
    expect(addressKey(ip)).toBe(key);
  });

  it('gives every address of one /64 the same key, and neighbouring /64s different ones', () => {
    const keys = new Set(
      ['2001:db8:a:b::1', '2001:db8:a:b:1234::', '2001:db8:a:b:dead:beef:0:1'].map(addressKey),
    );
    expect(keys.size).toBe(1);
    expect(addressKey('2001:db8:a:c::1')).not.toBe(addressKey('2001:db8:a:b::1'));
  });
});
