import type { CalendarKind } from '@waitlist/contract';
import { connectCalDav } from './caldav-client.ts';
import type { StoredEvent } from './calendar.repo.ts';
import { boundedText, CalendarAddressRefused } from './calendar-fetch.ts';
import type { IcsWindow, SkippedEvent } from './ics.ts';
import { CalendarParseTimeout, type IcsParser } from './ics-parser.ts';

/** What a connection keeps between two reads: a sync token (CalDAV sync-collection) and a CTag or ETag. */
export interface ReadState {
  syncToken: string | null;
  ctag: string | null;
}

/** How to reach one calendar: its kind, address and credentials (opened from the sealed secret). */
export interface CalendarSource {
  kind: CalendarKind;
  /** The CalDAV server, the ICS feed, or the local calendar's CalDAV address. */
  url: string;
  /** The CalDAV collection read (null on first connect: the account's first calendar is taken). */
  calendarRef: string | null;
  username: string | null;
  password: string | null;
  fetch: typeof globalThis.fetch;
  /** Parses what was read on a worker thread, under a time limit (issue 38: never on the event loop). */
  parser: IcsParser;
  /** Events an earlier read found too slow to expand: skipped without trying again. */
  skipUids?: readonly string[];
}

export interface ReadResult {
  events: StoredEvent[];
  state: ReadState;
  /** The calendar's name and collection, as found (first connect). */
  name: string;
  calendarRef: string | null;
  /** HTTP requests the read made (what a sync costs). */
  requests: number;
  /** Events left out of `events` (a rule that repeats every second, past a bound), for the owner. */
  skipped?: SkippedEvent[];
  /** Only what changed since the last read was parsed (CalDAV's incremental sync): `skipped` covers that. */
  partial?: boolean;
}

/** A CalDAV server, an ICS feed or the local calendar answered, but not with a calendar. */
export class CalendarReadError extends Error {
  override name = 'CalendarReadError';
  constructor(
    message: string,
    readonly reason: 'sign-in' | 'no-calendar' | 'unreadable' | 'unreachable' | 'too-slow',
    /** `too-slow`: the events found to spin before the read gave up (the next read skips them). */
    readonly slow: { uid: string; title: string }[] = [],
  ) {
    super(message);
  }
}

/**
 * The source's fetch, remembering an address refusal: a client library may wrap the error it gets, and the
 * owner must still be told that the address is not allowed (not that it is unreachable).
 */
function watchingRefusals(fetch: typeof globalThis.fetch) {
  const seen: { refused?: CalendarAddressRefused } = {};
  const watched: typeof globalThis.fetch = async (input, init) => {
    try {
      return await fetch(input, init);
    } catch (error) {
      if (error instanceof CalendarAddressRefused) seen.refused = error;
      throw error;
    }
  };
  return {
    fetch: watched,
    rethrow: (error: unknown): never => {
      throw seen.refused ?? error;
    },
  };
}

/**
 * The events of CalDAV objects (or one ICS feed), parsed together on the parser's worker: one object that
 * cannot be parsed makes the read unreadable, one that takes too long is skipped (or the read fails on time).
 */
async function parseObjects(
  source: CalendarSource,
  objects: readonly { data: string; href: string | null; etag: string | null }[],
  window: IcsWindow,
): Promise<{ events: StoredEvent[]; skipped: SkippedEvent[] }> {
  if (objects.length === 0) return { events: [], skipped: [] };
  let parsed: Awaited<ReturnType<IcsParser['parse']>>;
  try {
    parsed = await source.parser.parse(
      objects.map((object) => object.data),
      window,
      source.skipUids,
    );
  } catch (error) {
    if (error instanceof CalendarParseTimeout)
      throw new CalendarReadError(error.message, 'too-slow', error.slow);
    throw error;
  }
  const events: StoredEvent[] = [];
  const skipped: SkippedEvent[] = [];
  parsed.forEach((result, index) => {
    if ('error' in result) throw new CalendarReadError(result.error, 'unreadable');
    const { href, etag } = objects[index]!;
    for (const event of result.events) events.push({ ...event, href, etag });
    skipped.push(...result.skipped);
  });
  return { events, skipped };
}

/**
 * Reads a CalDAV calendar (or the local one): everything the first time, then only what changed since the
 * last read (sync-collection, else CTag/ETag), merged into what was seen before. The result is the whole
 * calendar as it is now, over `window`.
 */
async function readCalDav(
  source: CalendarSource,
  before: readonly StoredEvent[],
  state: ReadState,
  window: IcsWindow,
): Promise<ReadResult> {
  let client: Awaited<ReturnType<typeof connectCalDav>>;
  const watched = watchingRefusals(source.fetch);
  try {
    client = await connectCalDav({
      serverUrl: source.url,
      username: source.username ?? '',
      password: source.password ?? '',
      fetch: watched.fetch,
    });
  } catch (error) {
    if (error instanceof CalendarAddressRefused) throw error;
    const status = (error as { status?: number }).status;
    if (status === 401 || status === 403) throw new CalendarReadError((error as Error).message, 'sign-in');
    watched.rethrow(new CalendarReadError((error as Error).message, 'unreachable'));
    throw error;
  }
  let calendarRef = source.calendarRef;
  let name = '';
  if (!calendarRef) {
    const [first] = await client.listCalendars();
    if (!first) throw new CalendarReadError('The account has no calendar', 'no-calendar');
    calendarRef = first.url;
    name = first.displayName;
  }
  const known = before.length > 0 || state.syncToken !== null || state.ctag !== null;
  if (!known) {
    const { objects, state: next } = await client.fullSync(calendarRef);
    const { events, skipped } = await parseObjects(source, objects, window);
    return {
      events,
      skipped,
      state: { syncToken: next.syncToken, ctag: next.ctag },
      name,
      calendarRef,
      requests: client.requestCount(),
    };
  }
  const etags: Record<string, string> = {};
  for (const event of before) if (event.href && event.etag) etags[event.href] = event.etag;
  const changes = await client.syncChanges(calendarRef, { ...state, etags });
  const touched = new Set([...changes.changed.map((object) => object.href), ...changes.deleted]);
  const kept =
    changes.method === 'unchanged' ? before : before.filter((event) => !touched.has(event.href ?? ''));
  const changed = await parseObjects(source, changes.changed, window);
  return {
    events: [...kept, ...changed.events],
    skipped: changed.skipped,
    partial: true,
    state: { syncToken: changes.state.syncToken, ctag: changes.state.ctag },
    name,
    calendarRef,
    requests: client.requestCount(),
  };
}

/** Reads an ICS feed: a conditional GET (its ETag), re-parsed whole when it changed. */
async function readIcs(
  source: CalendarSource,
  before: readonly StoredEvent[],
  state: ReadState,
  window: IcsWindow,
): Promise<ReadResult> {
  const url = source.url.replace(/^webcal:/i, 'https:');
  let response: Response;
  try {
    response = await source.fetch(url, {
      headers: { accept: 'text/calendar', ...(state.ctag ? { 'if-none-match': state.ctag } : {}) },
      redirect: 'follow',
    });
  } catch (error) {
    if (error instanceof CalendarAddressRefused) throw error;
    throw new CalendarReadError((error as Error).message, 'unreachable');
  }
  const name = new URL(url).host;
  if (response.status === 304)
    return { events: [...before], partial: true, state, name, calendarRef: null, requests: 1 };
  if (response.status === 401 || response.status === 403)
    throw new CalendarReadError(`The feed answered ${response.status}`, 'sign-in');
  if (!response.ok) throw new CalendarReadError(`The feed answered ${response.status}`, 'unreachable');
  const text = await boundedText(response);
  if (!/BEGIN:VCALENDAR/i.test(text)) throw new CalendarReadError('Not an iCalendar feed', 'unreadable');
  const { events, skipped } = await parseObjects(source, [{ data: text, href: null, etag: null }], window);
  return {
    events,
    skipped,
    state: { syncToken: null, ctag: response.headers.get('etag') },
    name,
    calendarRef: null,
    requests: 1,
  };
}

/** Reads any connected calendar as it is now (Google and Microsoft come with their own readers). */
export function readCalendar(
  source: CalendarSource,
  before: readonly StoredEvent[],
  state: ReadState,
  window: IcsWindow,
): Promise<ReadResult> {
  if (source.kind === 'ics') return readIcs(source, before, state, window);
  if (source.kind === 'caldav' || source.kind === 'local') return readCalDav(source, before, state, window);
  return Promise.reject(new CalendarReadError(`No reader for ${source.kind} calendars yet`, 'unreachable'));
}
