import { isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The key a per-address limit counts a client under (issue 24): an IPv4 address as it is; an IPv6 address by
 * its /64 prefix, because one subscriber (one home, one server) is handed a whole /64 and can pick any of its
 * 2^64 addresses; an IPv4-mapped IPv6 address (::ffff:203.0.113.9) as the IPv4 address it maps.
 */
export function addressKey(ip: string): string {
  const address = ip
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '');
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return address.toLowerCase();
  // ipaddr.js's `process` turns an IPv4-mapped address into the IPv4 address it maps.
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(':')}::/64`;
}
