import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which addresses the server may connect to when a user names the place (issue 24's push endpoints, issue 29's
 * calendar addresses): public unicast only, checked at the moment of connecting, so the address checked is
 * the address connected to and a name that resolves differently later (DNS rebinding) gets nowhere.
 */

/** Every address a host name resolves to (like dns.lookup with `all: true`). */
export type ResolveHost = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: ResolveHost = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** IPv6 global unicast (RFC 4291 §2.4): everything a public push service can live on. */
const globalUnicast = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * A public unicast address: not loopback, private (10/8, 172.16/12, 192.168/16), link-local (169.254/16, so
 * 169.254.169.254 too; fe80::/10), carrier-grade NAT (100.64/10), unique-local (fc00::/7), unspecified
 * (0.0.0.0/8, ::), multicast, broadcast, documentation or otherwise reserved; and no IPv6 form that carries
 * an IPv4 address (IPv4-mapped ::ffff:0:0/96, IPv4-compatible ::/96, NAT64, 6to4, Teredo). ipaddr.js keeps the
 * IANA special-purpose registries; only what it calls `unicast` passes.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.range() !== 'unicast') return false;
  return parsed.kind() === 'ipv4' || (parsed as ipaddr.IPv6).match(globalUnicast);
}

/** The URL's host as an address when it is one (WHATWG URLs already turn `2130706433` or `0x7f.1` into dotted form). */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return isIP(bare) ? bare : undefined;
}

/**
 * The resolver that refuses non-public addresses, and the `lookup` to give a connection (node:net, undici's
 * `connect.lookup`): it resolves, refuses unless every address is public, and hands the checked addresses to
 * the socket. `refuse` makes the error thrown, with the reason in words.
 */
export function createAddressGuard(deps: { resolve?: ResolveHost; refuse: (reason: string) => Error }) {
  const resolve = deps.resolve ?? systemResolver;
  const publicAddresses = async (hostname: string) => {
    let addresses: { address: string; family: number }[];
    try {
      addresses = await resolve(hostname);
    } catch {
      throw deps.refuse('its host name does not resolve');
    }
    if (addresses.length === 0) throw deps.refuse('its host name does not resolve');
    if (!addresses.every(({ address }) => isPublicAddress(address)))
      throw deps.refuse('must be on a public address (not private, loopback or reserved)');
    return addresses;
  };
  const lookup: LookupFunction = (hostname, options, callback) => {
    const literal = literalAddress(hostname);
    const found = literal
      ? isPublicAddress(literal)
        ? Promise.resolve([{ address: literal, family: isIP(literal) }])
        : Promise.reject(deps.refuse('must be on a public address (not private, loopback or reserved)'))
      : publicAddresses(hostname);
    found.then(
      (addresses) => {
        const wanted = options.family ? addresses.filter((a) => a.family === options.family) : addresses;
        if (wanted.length === 0) {
          callback(deps.refuse('its host name does not resolve') as NodeJS.ErrnoException, '', 0);
          return;
        }
        if (options.all) (callback as (e: null, all: typeof wanted) => void)(null, wanted);
        else callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
  return { publicAddresses, lookup };
}
