import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where a push may be posted (issue 24). A subscription's endpoint is a URL the browser hands us, so anyone
 * signed in can name any address: the server would then POST to it (169.254.169.254, 10.0.0.1, a database's
 * port on 127.0.0.1). Only https endpoints whose host resolves to public addresses are accepted, when the
 * subscription is stored and again when each push is sent, at the moment of connecting: the address checked
 * is the address connected to, so a name that resolves differently later (DNS rebinding) gets nowhere.
 * The one exception is the local push service named in LOCAL_PUSH_SERVICES (tests, development): those
 * exact origins, nothing else on loopback.
 */

/** Every address a host name resolves to (like dns.lookup with `all: true`). */
export type ResolveHost = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: ResolveHost = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** Why an endpoint is refused (the 400's `errors.endpoint`, or the log line at send time). */
export class PushEndpointRefused extends Error {
  readonly code = 'PUSH_ENDPOINT_REFUSED';
}

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
function literalAddress(hostname: string): string | undefined {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return isIP(bare) ? bare : undefined;
}

export type PushEndpoints = ReturnType<typeof createPushEndpoints>;

export function createPushEndpoints(deps: {
  /** Origins of local push services that may be posted to over http on loopback (LOCAL_PUSH_SERVICES). */
  localServices: readonly string[];
  /** DNS; tests replace it. */
  resolve?: ResolveHost;
}) {
  const resolve = deps.resolve ?? systemResolver;
  const localServices = new Set(deps.localServices);

  const parse = (endpoint: string): URL => {
    if (!URL.canParse(endpoint)) throw new PushEndpointRefused('must be an https URL');
    const url = new URL(endpoint);
    if (url.username || url.password) throw new PushEndpointRefused('must not carry a user name or password');
    return url;
  };

  /** Every address the host resolves to must be public (a name that also resolves to 10.0.0.1 is refused). */
  const publicAddresses = async (hostname: string) => {
    let addresses: { address: string; family: number }[];
    try {
      addresses = await resolve(hostname);
    } catch {
      throw new PushEndpointRefused('its host name does not resolve');
    }
    if (addresses.length === 0) throw new PushEndpointRefused('its host name does not resolve');
    if (!addresses.every(({ address }) => isPublicAddress(address)))
      throw new PushEndpointRefused('must be on a public address (not private, loopback or reserved)');
    return addresses;
  };

  /**
   * The `lookup` given to the connection: it resolves, refuses unless every address is public, and hands
   * the checked addresses to the socket, so the connection goes to an address that was checked.
   */
  const guardedLookup: LookupFunction = (hostname, options, callback) => {
    publicAddresses(hostname).then(
      (addresses) => {
        const wanted = options.family ? addresses.filter((a) => a.family === options.family) : addresses;
        if (wanted.length === 0) {
          callback(new PushEndpointRefused('its host name does not resolve'), '', 0);
          return;
        }
        if (options.all) (callback as (e: null, all: typeof wanted) => void)(null, wanted);
        else callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };

  return {
    /** Throws PushEndpointRefused (with the reason) unless a push may be posted to `endpoint`. */
    async check(endpoint: string): Promise<void> {
      const url = parse(endpoint);
      if (localServices.has(url.origin)) return;
      if (url.protocol !== 'https:') throw new PushEndpointRefused('must be an https URL');
      const literal = literalAddress(url.hostname);
      if (literal) {
        if (!isPublicAddress(literal))
          throw new PushEndpointRefused('must be on a public address (not private, loopback or reserved)');
        return;
      }
      await publicAddresses(url.hostname);
    },

    /**
     * How to connect to `endpoint` at send time: the URL, and the `lookup` that checks the address actually
     * connected to (undefined for a configured local service or a literal public address, which involve no
     * DNS). Throws PushEndpointRefused for an endpoint that is not allowed any more.
     */
    connection(endpoint: string): { url: URL; lookup: LookupFunction | undefined } {
      const url = parse(endpoint);
      if (localServices.has(url.origin)) return { url, lookup: undefined };
      if (url.protocol !== 'https:') throw new PushEndpointRefused('must be an https URL');
      const literal = literalAddress(url.hostname);
      if (literal) {
        if (!isPublicAddress(literal))
          throw new PushEndpointRefused('must be on a public address (not private, loopback or reserved)');
        return { url, lookup: undefined };
      }
      return { url, lookup: guardedLookup };
    },
  };
}
