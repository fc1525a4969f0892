import type { LookupFunction } from 'node:net';
import {
  createAddressGuard,
  isPublicAddress,
  literalAddress,
  type ResolveHost,
} from '../../lib/public-address.ts';

export { isPublicAddress, type ResolveHost };

/**
 * Where a push may be posted (issue 24). A subscription's endpoint is a URL the browser hands us, so anyone
 * signed in can name any address: the server would then POST to it (169.254.169.254, 10.0.0.1, a database's
 * port on 127.0.0.1). Only https endpoints whose host resolves to public addresses are accepted, when the
 * subscription is stored and again when each push is sent, at the moment of connecting: the address checked
 * is the address connected to, so a name that resolves differently later (DNS rebinding) gets nowhere.
 * The one exception is the local push service named in LOCAL_PUSH_SERVICES (tests, development): those
 * exact origins, nothing else on loopback.
 */

/** Why an endpoint is refused (the 400's `errors.endpoint`, or the log line at send time). */
export class PushEndpointRefused extends Error {
  readonly code = 'PUSH_ENDPOINT_REFUSED';
}

export type PushEndpoints = ReturnType<typeof createPushEndpoints>;

export function createPushEndpoints(deps: {
  /** Origins of local push services that may be posted to over http on loopback (LOCAL_PUSH_SERVICES). */
  localServices: readonly string[];
  /** DNS; tests replace it. */
  resolve?: ResolveHost;
}) {
  const resolve = deps.resolve;
  const localServices = new Set(deps.localServices);

  const parse = (endpoint: string): URL => {
    if (!URL.canParse(endpoint)) throw new PushEndpointRefused('must be an https URL');
    const url = new URL(endpoint);
    if (url.username || url.password) throw new PushEndpointRefused('must not carry a user name or password');
    return url;
  };

  // Every address the host resolves to must be public (a name that also resolves to 10.0.0.1 is refused), at
  // the moment of connecting too (`guardedLookup`).
  const { publicAddresses, lookup: guardedLookup } = createAddressGuard({
    resolve,
    refuse: (reason) => new PushEndpointRefused(reason),
  });

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
