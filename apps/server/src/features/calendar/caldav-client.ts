import { createDAVClient } from 'tsdav';
import {
  boundCalendarFetch,
  CalendarAddressRefused,
  CalendarRedirectRefused,
  limitBody,
  MAX_CALENDAR_ANSWER_BYTES,
} from './calendar-fetch.ts';

/**
 * A CalDAV account (iCloud, Fastmail, Nextcloud, radicale…) read and written with tsdav, Basic auth with an
 * app-specific password. Changes are read by `sync-collection` (RFC 6578); a server without it, or a sync
 * token the server no longer knows, falls back to comparing the collection's CTag and each object's ETag.
 */
export interface CalDavConnection {
  serverUrl: string;
  username: string;
  password: string;
  /** Never use sync-collection, only CTag/ETag comparison (servers without RFC 6578; tests of the fallback). */
  forceEtagSync?: boolean;
  fetch?: typeof globalThis.fetch;
}

export interface CalDavCalendar {
  url: string;
  displayName: string;
  ctag: string | null;
  syncToken: string | null;
  supportsSyncCollection: boolean;
}

/** One calendar object resource: an .ics holding one event (with its overridden occurrences). */
export interface CalDavObject {
  href: string;
  etag: string | null;
  data: string;
}

/** What is kept between two syncs of one calendar. */
export interface CalDavSyncState {
  syncToken: string | null;
  ctag: string | null;
  /** href → ETag of every object at the last sync. */
  etags: Record<string, string>;
}

export interface CalDavChanges {
  changed: CalDavObject[];
  deleted: string[];
  state: CalDavSyncState;
  /** How the changes were found: 'unchanged' means the CTag matched and nothing else was asked. */
  method: 'sync-collection' | 'etag' | 'unchanged';
}

export class CalDavError extends Error {
  override name = 'CalDavError';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface CalDavClient {
  listCalendars(): Promise<CalDavCalendar[]>;
  /** Every event object of the calendar, with the state the next `syncChanges` starts from. */
  fullSync(calendarUrl: string): Promise<{ objects: CalDavObject[]; state: CalDavSyncState }>;
  syncChanges(calendarUrl: string, state: CalDavSyncState): Promise<CalDavChanges>;
  /** PUTs a new object (If-None-Match: *, so it never overwrites one). */
  createEvent(
    calendarUrl: string,
    event: { filename: string; ics: string },
  ): Promise<{ href: string; etag: string | null }>;
  /** DELETEs an object; with an ETag only if unchanged since (412 → CalDavError). A missing object is fine. */
  deleteEvent(object: { href: string; etag?: string | null }): Promise<void>;
  /** HTTP requests made so far (what a sync costs). */
  requestCount(): number;
}

const text = (value: unknown): string | null => {
  if (value == null) return null;
  if (typeof value === 'object' && '_cdata' in value) return String((value as { _cdata: unknown })._cdata);
  return String(value);
};

const withSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`);

type Dav = Awaited<ReturnType<typeof createDAVClient>>;
/** A connected account: the tsdav client (auth and counting fetch bound) and how hrefs are made absolute. */
interface Session {
  dav: Dav;
  absolute(href: string): string;
}

async function collectionState(
  session: Session,
  url: string,
): Promise<{ ctag: string | null; syncToken: string | null }> {
  const [response] = await session.dav.propfind({
    url,
    props: { 'cs:getctag': {}, 'd:sync-token': {} },
    depth: '0',
  });
  if (!response?.ok) throw new CalDavError(`Could not read the calendar ${url}`, response?.status);
  return { ctag: text(response.props?.getctag), syncToken: text(response.props?.syncToken) };
}

async function fetchObjects(session: Session, calendarUrl: string, hrefs: string[]): Promise<CalDavObject[]> {
  if (hrefs.length === 0) return [];
  const responses = await session.dav.calendarMultiGet({
    url: calendarUrl,
    props: { 'd:getetag': {}, 'c:calendar-data': {} },
    objectUrls: hrefs.map((href) => new URL(session.absolute(href)).pathname),
    depth: '1',
  });
  return responses
    .filter((r) => r.ok && r.href && text(r.props?.calendarData))
    .map((r) => ({
      href: session.absolute(r.href ?? ''),
      etag: text(r.props?.getetag),
      data: text(r.props?.calendarData) ?? '',
    }));
}

async function etagChanges(
  session: Session,
  calendarUrl: string,
  state: CalDavSyncState,
): Promise<CalDavChanges> {
  const { ctag, syncToken } = await collectionState(session, calendarUrl);
  if (ctag !== null && ctag === state.ctag) {
    return { changed: [], deleted: [], state: { ...state, syncToken }, method: 'unchanged' };
  }
  const listing = await session.dav.propfind({ url: calendarUrl, props: { 'd:getetag': {} }, depth: '1' });
  const collection = session.absolute(calendarUrl);
  const etags: Record<string, string> = {};
  for (const response of listing) {
    const href = response.href ? session.absolute(response.href) : null;
    if (!href || href === collection || !response.ok) continue;
    etags[href] = text(response.props?.getetag) ?? '';
  }
  const changedHrefs = Object.keys(etags).filter((href) => state.etags[href] !== etags[href]);
  const deleted = Object.keys(state.etags).filter((href) => !(href in etags));
  const changed = await fetchObjects(session, calendarUrl, changedHrefs);
  return { changed, deleted, state: { syncToken, ctag, etags }, method: 'etag' };
}

async function syncCollectionChanges(
  session: Session,
  calendarUrl: string,
  state: CalDavSyncState,
): Promise<CalDavChanges | null> {
  const responses = await session.dav.syncCollection({
    url: calendarUrl,
    props: { 'd:getetag': {} },
    syncLevel: 1,
    syncToken: state.syncToken ?? undefined,
  });
  // 403/409 with DAV:valid-sync-token (the server forgot the token) or any other refusal: compare ETags.
  if (responses.some((r) => !r.ok && r.status !== 404)) return null;
  const collection = session.absolute(calendarUrl);
  const etags = { ...state.etags };
  const changedHrefs: string[] = [];
  const deleted: string[] = [];
  for (const response of responses) {
    const href = response.href ? session.absolute(response.href) : null;
    if (!href || href === collection) continue;
    if (response.status === 404) {
      deleted.push(href);
      delete etags[href];
    } else {
      const etag = text(response.props?.getetag) ?? '';
      if (state.etags[href] !== etag) changedHrefs.push(href);
      etags[href] = etag;
    }
  }
  const changed = await fetchObjects(session, calendarUrl, changedHrefs);
  const raw = responses[0]?.raw as { multistatus?: { syncToken?: unknown } } | undefined;
  const syncToken = text(raw?.multistatus?.syncToken) ?? state.syncToken;
  return { changed, deleted, state: { syncToken, ctag: null, etags }, method: 'sync-collection' };
}

/**
 * Providers that keep an account's calendars on sibling hosts of the address typed (iCloud: caldav.icloud.com
 * names its calendar home on p42-caldav.icloud.com). Only these, over https, share the account's credentials.
 */
const SIBLING_HOST_DOMAINS = ['icloud.com'];

/** Whether the account's credentials may go to `url`: the origin the owner typed (or a listed sibling host). */
export function sameAccountOrigin(serverUrl: string, url: URL): boolean {
  const typed = new URL(serverUrl);
  if (url.origin === typed.origin) return true;
  return (
    typed.protocol === 'https:' &&
    url.protocol === 'https:' &&
    url.port === '' &&
    SIBLING_HOST_DOMAINS.some(
      (domain) => typed.hostname.endsWith(`.${domain}`) && url.hostname.endsWith(`.${domain}`),
    )
  );
}

/** The account's fetch: bounded, to the typed origin only, counting requests and remembering a refusal. */
function accountFetch(connection: CalDavConnection) {
  const baseFetch = boundCalendarFetch(connection.fetch ?? globalThis.fetch);
  const seen: { requests: number; unauthorized: boolean; refusal?: CalendarAddressRefused } = {
    requests: 0,
    unauthorized: false,
  };
  const remember = (error: unknown) => {
    if (error instanceof CalendarAddressRefused) seen.refusal ??= error;
  };
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if (seen.refusal) throw seen.refusal;
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!sameAccountOrigin(connection.serverUrl, url)) {
      const refused = new CalendarRedirectRefused(
        `The CalDAV server named another server (${url.host})`,
        'other-server',
      );
      remember(refused);
      throw refused;
    }
    seen.requests += 1;
    let response: Response;
    try {
      response = await baseFetch(input, init);
    } catch (error) {
      remember(error);
      throw error;
    }
    if (response.status === 401) seen.unauthorized = true;
    // Bounded already; bounded again here only to hear a refusal that tsdav would swallow.
    return limitBody(response, MAX_CALENDAR_ANSWER_BYTES, remember);
  };
  return { fetch, seen };
}

/**
 * Connects (discovers the principal and calendar home); a wrong password is a CalDavError with status 401.
 * Every request goes through the bounded calendar fetch (a byte and a time limit on each answer, redirects kept
 * on their origin) and only to the origin the owner typed: a principal, home or calendar href on another host
 * is refused (CalendarRedirectRefused) before the Basic credentials are sent. tsdav swallows some errors (it
 * tries other discovery addresses), so the first refusal met is remembered, ends the session's requests, and
 * is what every call then throws.
 */
export async function connectCalDav(connection: CalDavConnection): Promise<CalDavClient> {
  const account = accountFetch(connection);
  const absolute = (href: string) => new URL(href, connection.serverUrl).href;
  let dav: Dav;
  try {
    dav = await createDAVClient({
      serverUrl: connection.serverUrl,
      credentials: { username: connection.username, password: connection.password },
      authMethod: 'Basic',
      defaultAccountType: 'caldav',
      fetch: account.fetch,
    });
  } catch (error) {
    if (account.seen.refusal) throw account.seen.refusal;
    if (account.seen.unauthorized)
      throw new CalDavError('The CalDAV server refused the username or app password', 401);
    throw new CalDavError(`Could not reach the CalDAV account: ${(error as Error).message}`);
  }
  if (account.seen.refusal) throw account.seen.refusal;

  /** A call's outcome, unless a refusal was met on the way (even one tsdav swallowed). */
  const guarded = async <T>(run: () => Promise<T>): Promise<T> => {
    let result: T;
    try {
      result = await run();
    } catch (error) {
      throw account.seen.refusal ?? error;
    }
    if (account.seen.refusal) throw account.seen.refusal;
    return result;
  };

  const session: Session = { dav, absolute };

  const client: CalDavClient = {
    requestCount: () => account.seen.requests,

    async listCalendars() {
      const calendars = await session.dav.fetchCalendars();
      return calendars
        .filter((calendar) => !calendar.components || calendar.components.includes('VEVENT'))
        .map((calendar) => ({
          url: session.absolute(calendar.url),
          displayName: typeof calendar.displayName === 'string' ? calendar.displayName : '',
          ctag: calendar.ctag ?? null,
          syncToken: calendar.syncToken ?? null,
          supportsSyncCollection: Boolean(calendar.reports?.includes('syncCollection')),
        }));
    },

    async fullSync(calendarUrl) {
      // State first: a change landing between the two requests is seen again next time, never missed.
      const { ctag, syncToken } = await collectionState(session, calendarUrl);
      const found = await session.dav.fetchCalendarObjects({
        calendar: { url: calendarUrl },
        urlFilter: () => true,
      });
      const objects = found
        .filter((object) => typeof object.data === 'string' && object.data !== '')
        .map((object) => ({
          href: session.absolute(object.url),
          etag: object.etag ?? null,
          data: object.data as string,
        }));
      const etags = Object.fromEntries(objects.map((object) => [object.href, object.etag ?? '']));
      return { objects, state: { syncToken: connection.forceEtagSync ? null : syncToken, ctag, etags } };
    },

    async syncChanges(calendarUrl, state) {
      if (!connection.forceEtagSync && state.syncToken) {
        const changes = await syncCollectionChanges(session, calendarUrl, state);
        if (changes) return changes;
      }
      const changes = await etagChanges(session, calendarUrl, state);
      return connection.forceEtagSync
        ? { ...changes, state: { ...changes.state, syncToken: null } }
        : changes;
    },

    async createEvent(calendarUrl, event) {
      const response = await session.dav.createCalendarObject({
        calendar: { url: calendarUrl },
        filename: event.filename,
        iCalString: event.ics,
      });
      if (!response.ok) {
        throw new CalDavError(`The CalDAV server refused the event (${response.status})`, response.status);
      }
      return {
        href: new URL(event.filename, withSlash(session.absolute(calendarUrl))).href,
        etag: response.headers.get('etag'),
      };
    },

    async deleteEvent(object) {
      const response = await session.dav.deleteCalendarObject({
        calendarObject: { url: session.absolute(object.href), etag: object.etag ?? undefined },
      });
      if (!response.ok && response.status !== 404) {
        throw new CalDavError(
          `The CalDAV server refused to delete the event (${response.status})`,
          response.status,
        );
      }
    },
  };
  return {
    requestCount: client.requestCount,
    listCalendars: () => guarded(() => client.listCalendars()),
    fullSync: (calendarUrl) => guarded(() => client.fullSync(calendarUrl)),
    syncChanges: (calendarUrl, state) => guarded(() => client.syncChanges(calendarUrl, state)),
    createEvent: (calendarUrl, event) => guarded(() => client.createEvent(calendarUrl, event)),
    deleteEvent: (object) => guarded(() => client.deleteEvent(object)),
  };
}
