import { Agent, fetch as undiciFetch } from 'undici';
import {
  createAddressGuard,
  isPublicAddress,
  literalAddress,
  type ResolveHost,
} from '../../lib/public-address.ts';

/** A calendar address the server may not reach (a private network, this machine): the owner's words. */
export class CalendarAddressRefused extends Error {
  override name = 'CalendarAddressRefused';
}

/**
 * The `fetch` every calendar request goes through (issue 29). An owner types a CalDAV server's or an ICS
 * feed's address, and the server then connects to it: a stranger's address could be 169.254.169.254, the
 * database on 127.0.0.1 or the office network. Connections go only to public unicast addresses, checked
 * when the socket connects (redirects included: each new connection is checked again), unless
 * `allowPrivate` (CALENDAR_ALLOW_PRIVATE_ADDRESSES: tests and a self-hosted CalDAV server on the LAN).
 * Each request is cut off after `timeoutMs`.
 */
export function createCalendarFetch(options: {
  allowPrivate: boolean;
  timeoutMs?: number;
  resolve?: ResolveHost;
}): typeof globalThis.fetch {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const guard = createAddressGuard({
    ...(options.resolve ? { resolve: options.resolve } : {}),
    refuse: (reason) => new CalendarAddressRefused(`The calendar address ${reason}`),
  });
  const dispatcher = new Agent({
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    ...(options.allowPrivate ? {} : { connect: { lookup: guard.lookup } }),
  });
  /** Refuses a URL before connecting: not http(s), or a literal address that is not public (no lookup runs for one). */
  const check = (url: URL) => {
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new CalendarAddressRefused('The calendar address must start with https://');
    const literal = literalAddress(url.hostname);
    if (!options.allowPrivate && literal && !isPublicAddress(literal))
      throw new CalendarAddressRefused(
        'The calendar address must be on a public address (not private, loopback or reserved)',
      );
  };
  const once = async (url: URL, init: RequestInit | undefined, signal: AbortSignal) => {
    check(url);
    try {
      return (await undiciFetch(url, {
        ...(init as object),
        redirect: 'manual',
        signal,
        dispatcher,
      })) as unknown as Response;
    } catch (error) {
      // undici wraps the lookup's refusal in a TypeError('fetch failed'): say the refusal itself.
      const cause = (error as { cause?: unknown }).cause;
      if (cause instanceof CalendarAddressRefused) throw cause;
      throw error;
    }
  };
  return (async (input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit) => {
    const request = input instanceof Request ? input : undefined;
    const merged: RequestInit | undefined = request
      ? { method: request.method, headers: request.headers, body: await request.text(), ...init }
      : init;
    const signal = init?.signal
      ? AbortSignal.any([init.signal, AbortSignal.timeout(timeoutMs)])
      : AbortSignal.timeout(timeoutMs);
    // Redirects are followed here, each new address checked like the first (at most 5).
    let url = new URL(request ? request.url : String(input));
    for (let hop = 0; ; hop += 1) {
      const response = await once(url, merged, signal);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location || hop === 5) return response;
      await response.body?.cancel();
      url = new URL(location, url);
    }
  }) as typeof globalThis.fetch;
}

/** At most this much of an ICS feed is read (a year of a busy salon is well under 1 MB). */
export const MAX_FEED_BYTES = 5 * 1024 * 1024;

/** A response's body as text, refusing one larger than `limit` bytes without reading it all. */
export async function boundedText(response: Response, limit = MAX_FEED_BYTES): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > limit) throw new Error(`The calendar feed is larger than ${limit} bytes`);
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new Error(`The calendar feed is larger than ${limit} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
