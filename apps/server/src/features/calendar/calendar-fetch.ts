import { MAX_CALENDAR_ANSWER_MB } from '@waitlist/contract';
import { Agent, fetch as undiciFetch } from 'undici';
import {
  createAddressGuard,
  isPublicAddress,
  literalAddress,
  type ResolveHost,
} from '../../lib/public-address.ts';

/**
 * A calendar address the server may not reach (a private network, this machine): the owner's words. The
 * refusals below are kinds of it, so that every reader passes them on to the owner as they are, instead of
 * "could not reach" (calendar-reader.ts rethrows this class untouched).
 */
export class CalendarAddressRefused extends Error {
  override name = 'CalendarAddressRefused';
}

/** One answer of the calendar was larger than `limit` bytes (after decompression): it was not read further. */
export class CalendarAnswerTooLarge extends CalendarAddressRefused {
  override name = 'CalendarAnswerTooLarge';
  constructor(readonly limit: number) {
    super(`The calendar answered with more than ${limit} bytes`);
  }
}

/**
 * The calendar sent us on where its credentials must not go: another server ('other-server', by a redirect or
 * a CalDAV href naming another host) or from https down to http ('insecure').
 */
export class CalendarRedirectRefused extends CalendarAddressRefused {
  override name = 'CalendarRedirectRefused';
  constructor(
    message: string,
    readonly reason: 'other-server' | 'insecure',
  ) {
    super(message);
  }
}

/** The most one calendar answer may hold, decompressed (an ICS year of a busy salon is well under 1 MB). */
export const MAX_CALENDAR_ANSWER_BYTES = MAX_CALENDAR_ANSWER_MB * 1024 * 1024;
/** At most this much of an ICS feed is read. */
export const MAX_FEED_BYTES = MAX_CALENDAR_ANSWER_BYTES;
const DEFAULT_TIMEOUT_MS = 15_000;
const MAX_REDIRECTS = 5;

/**
 * The response with a body that errors (CalendarAnswerTooLarge) once more than `limit` bytes came through: a
 * caller reading it whole (`text()`, `json()`, a library's own reading) gets the error, never the rest. The
 * source is read only as fast as the body is (no buffering ahead), and cancelled at the limit, which closes
 * the connection and stops the decompression. `onRefused` hears any refusal met while reading.
 */
export function limitBody(
  response: Response,
  limit: number,
  onRefused?: (error: CalendarAddressRefused) => void,
): Response {
  const refuse = (error: CalendarAddressRefused) => {
    onRefused?.(error);
    return error;
  };
  // Content-Length counts the bytes as sent (compressed): past the limit already, nothing need be read.
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > limit) {
    void response.body?.cancel().catch(() => {});
    throw refuse(new CalendarAnswerTooLarge(limit));
  }
  if (!response.body) return response;
  const source = response.body.getReader();
  let size = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let chunk: Awaited<ReturnType<typeof source.read>>;
        try {
          chunk = await source.read();
        } catch (error) {
          if (error instanceof CalendarAddressRefused) refuse(error);
          controller.error(error);
          return;
        }
        if (chunk.done) {
          controller.close();
          return;
        }
        size += chunk.value.byteLength;
        if (size > limit) {
          const error = refuse(new CalendarAnswerTooLarge(limit));
          controller.error(error);
          await source.cancel(error).catch(() => {});
          return;
        }
        controller.enqueue(chunk.value);
      },
      cancel: (reason) => source.cancel(reason),
    },
    { highWaterMark: 0 },
  );
  const limited = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  Object.defineProperties(limited, {
    url: { value: response.url },
    redirected: { value: response.redirected },
  });
  return limited;
}

const credentialHeaders = ['authorization', 'proxy-authorization', 'cookie'];

/**
 * Why a redirect from `from` to `to` is not followed, if it is not: never from https down to http; and a
 * request carrying credentials (Basic auth, a bearer token, a cookie) only to its own origin (or the same host
 * upgraded to https), so a calendar server cannot send the owner's password to another one.
 */
export function redirectRefusal(
  from: URL,
  to: URL,
  credentials: boolean,
): CalendarRedirectRefused | undefined {
  if (from.protocol === 'https:' && to.protocol !== 'https:')
    return new CalendarRedirectRefused(`The calendar redirected from https to ${to.protocol}`, 'insecure');
  const upgraded =
    from.protocol === 'http:' && to.protocol === 'https:' && from.host === to.host && to.port === '';
  if (credentials && to.origin !== from.origin && !upgraded)
    return new CalendarRedirectRefused(
      `The calendar redirected to another server (${to.host})`,
      'other-server',
    );
  return undefined;
}

/** One request, not following redirects, answered as it came. */
type OneRequest = (url: URL, init: RequestInit) => Promise<Response>;

const BOUNDED = Symbol('bounded calendar fetch');
type BoundedFetch = typeof globalThis.fetch & { [BOUNDED]?: true };

export interface CalendarFetchLimits {
  /** Each request (and the reading of its answer) is cut off after this long. */
  timeoutMs?: number;
  /** The most bytes one answer may hold, decompressed. */
  maxBytes?: number;
}

/** The bounded fetch around one request: a time limit, redirects followed by the rules above, the byte limit. */
function bounded(once: OneRequest, limits: CalendarFetchLimits): typeof globalThis.fetch {
  const timeoutMs = limits.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = limits.maxBytes ?? MAX_CALENDAR_ANSWER_BYTES;
  const fetch: BoundedFetch = async (input, init) => {
    const request = input instanceof Request ? input : undefined;
    const merged: RequestInit = request
      ? { method: request.method, headers: request.headers, body: await request.text(), ...init }
      : { ...init };
    const signal = init?.signal
      ? AbortSignal.any([init.signal, AbortSignal.timeout(timeoutMs)])
      : AbortSignal.timeout(timeoutMs);
    const headers = new Headers(merged.headers);
    const credentials = credentialHeaders.some((name) => headers.has(name));
    let url = new URL(request ? request.url : input instanceof URL ? input.href : String(input));
    for (let hop = 0; ; hop += 1) {
      const response = await once(url, { ...merged, redirect: 'manual', signal });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location || hop === MAX_REDIRECTS)
        return limitBody(response, maxBytes);
      await response.body?.cancel().catch(() => {});
      const next = new URL(location, url);
      const refused = redirectRefusal(url, next, credentials);
      if (refused) throw refused;
      url = next;
    }
  };
  fetch[BOUNDED] = true;
  return fetch;
}

/**
 * Any fetch (a provider's client, a test's) bounded like the calendar fetch: a time limit, a byte limit on each
 * answer, and redirects that keep credentials on their origin. A fetch already bounded is returned as it is.
 */
export function boundCalendarFetch(
  fetch: typeof globalThis.fetch,
  limits: CalendarFetchLimits = {},
): typeof globalThis.fetch {
  if ((fetch as BoundedFetch)[BOUNDED]) return fetch;
  return bounded((url, init) => fetch(url, init), limits);
}

/**
 * The `fetch` every calendar request goes through (issues 29 and 38). An owner types a CalDAV server's or an
 * ICS feed's address, and the server then connects to it: a stranger's address could be 169.254.169.254, the
 * database on 127.0.0.1 or the office network. Connections go only to public unicast addresses, checked
 * when the socket connects (redirects included: each new connection is checked again), unless
 * `allowPrivate` (CALENDAR_ALLOW_PRIVATE_ADDRESSES: tests and a self-hosted CalDAV server on the LAN).
 * Each request is cut off after `timeoutMs`; each answer is read to at most `maxBytes`, decompressed (a 1 MB
 * gzip that expands to 1 GB stops at the limit); credentials never follow a redirect to another server or
 * down to http.
 */
export function createCalendarFetch(
  options: { allowPrivate: boolean; resolve?: ResolveHost } & CalendarFetchLimits,
): typeof globalThis.fetch {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
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
  const once: OneRequest = async (url, init) => {
    check(url);
    try {
      return (await undiciFetch(url, { ...(init as object), dispatcher })) as unknown as Response;
    } catch (error) {
      // undici wraps the lookup's refusal in a TypeError('fetch failed'): say the refusal itself.
      const cause = (error as { cause?: unknown }).cause;
      if (cause instanceof CalendarAddressRefused) throw cause;
      throw error;
    }
  };
  return bounded(once, { timeoutMs, ...(options.maxBytes ? { maxBytes: options.maxBytes } : {}) });
}

/** A response's body as text, refusing one larger than `limit` bytes without reading it all. */
export async function boundedText(response: Response, limit = MAX_FEED_BYTES): Promise<string> {
  return new Response(limitBody(response, limit).body).text();
}
