import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { auth, calendar, type calendar_v3 } from '@googleapis/calendar';
import type { StoredEvent } from './calendar.repo.ts';
import { boundCalendarFetch, CalendarAddressRefused } from './calendar-fetch.ts';
import { CalendarReadError, type ReadResult, type ReadState } from './calendar-reader.ts';
import { GOOGLE_OURS_PROPERTY, mergeGoogleChanges, toCalendarEvent } from './google-events.ts';
import type { IcsWindow } from './ics.ts';

/**
 * Google Calendar through the official client (`@googleapis/calendar`, whose OAuth2Client comes from
 * google-auth-library): OAuth consent with offline access, events read by full sync then sync tokens
 * (410 Gone → full sync again), push channels (events.watch) checked by our own channel token, and the
 * bookings we write marked by a private extended property so they are never read back as cancellations.
 * Every call takes the tokens as they were opened from the sealed secret and answers the refreshed ones
 * (`tokens`, null when unchanged) for the caller to seal again; tokens are never logged here.
 */

/**
 * The narrowest scopes that let us list the owner's calendars to choose one (calendarlist.readonly: names,
 * no settings or sharing) and read, watch, write and delete events on calendars the owner owns
 * (calendar.events.owned: not calendars merely shared with them, and not calendar settings). Google has no
 * scope for one chosen calendar; the broader calendar.readonly / calendar.events are not needed.
 */
export const GOOGLE_SCOPES = [
  'https://www.googleapis.com/auth/calendar.events.owned',
  'https://www.googleapis.com/auth/calendar.calendarlist.readonly',
];

export interface GoogleApp {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** Other addresses for Google's endpoints (tests: the local fake); Google's own when absent. */
  endpoints?: { api: string; token: string; revoke: string };
  fetch?: typeof globalThis.fetch;
}

export interface GoogleTokens {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
}

export interface GoogleChannel {
  id: string;
  resourceId: string;
  /** Our random secret, sent back by Google in X-Goog-Channel-Token on every push. */
  token: string;
  expiration: Date;
}

export interface GoogleBooking {
  openingId: string;
  start: Date;
  end: Date;
  customerName: string;
  customerPhone: string;
  serviceName?: string | null;
}

/** Google said no to the tokens (revoked, expired refresh token): the owner must connect again. */
export class GoogleAuthError extends Error {
  override name = 'GoogleAuthError';
}

/** A Google API call failed (not for the tokens); `status` is Google's HTTP status, when it answered. */
export class GoogleApiError extends Error {
  override name = 'GoogleApiError';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

const statusOf = (error: unknown): number | undefined => {
  const e = error as { status?: number; response?: { status?: number } };
  return e.status ?? e.response?.status;
};

/** The bounded fetch's refusal (an answer too large, a redirect elsewhere) under gaxios's wrapping, if any. */
const refusalIn = (error: unknown): CalendarAddressRefused | undefined => {
  let cause = error;
  for (let depth = 0; cause && depth < 5; depth += 1) {
    if (cause instanceof CalendarAddressRefused) return cause;
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
};

/**
 * Not gaxios's error itself: it carries the request (headers, form, tokens) into whatever logs it. A refusal
 * of the bounded fetch is passed on as it is, for the owner's words.
 */
const apiError = (error: unknown): Error => {
  const refusal = refusalIn(error);
  if (refusal) return refusal;
  const status = statusOf(error);
  return new GoogleApiError(`Google answered ${status ?? 'nothing'}: ${(error as Error).message}`, status);
};

type OAuthClient = InstanceType<typeof auth.OAuth2>;

function oauthClient(app: GoogleApp, count?: () => void): OAuthClient {
  // Every answer from Google is read through the bounded calendar fetch (issue 38): bytes, time, redirects.
  const fetch = boundCalendarFetch(app.fetch ?? globalThis.fetch);
  return new auth.OAuth2({
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    redirectUri: app.redirectUri,
    ...(app.endpoints
      ? { endpoints: { oauth2TokenUrl: app.endpoints.token, oauth2RevokeUrl: app.endpoints.revoke } }
      : {}),
    // A 401 refreshes the access token once even before its expiry (Google revokes early sometimes).
    forceRefreshOnFailure: true,
    transporterOptions: {
      fetchImplementation: (input, init) => {
        count?.();
        return fetch(input as Parameters<typeof fetch>[0], init as Parameters<typeof fetch>[1]);
      },
    },
  });
}

/** One use of the API with one set of tokens: the client, the refreshed tokens, the requests made. */
function session(app: GoogleApp, tokens: GoogleTokens) {
  let requests = 0;
  let refreshed: GoogleTokens | null = null;
  const client = oauthClient(app, () => {
    requests += 1;
  });
  client.setCredentials({
    access_token: tokens.accessToken,
    refresh_token: tokens.refreshToken,
    expiry_date: tokens.expiresAt?.getTime() ?? null,
  });
  client.on('tokens', (fresh) => {
    refreshed = {
      accessToken: fresh.access_token ?? tokens.accessToken,
      refreshToken: fresh.refresh_token ?? tokens.refreshToken,
      expiresAt: fresh.expiry_date ? new Date(fresh.expiry_date) : null,
    };
  });
  const api = calendar({
    version: 'v3',
    auth: client,
    ...(app.endpoints ? { rootUrl: `${app.endpoints.api.replace(/\/$/, '')}/` } : {}),
  });
  /** Runs a call; a refused refresh (invalid_grant) or a 401 after refreshing means signing in again. */
  async function call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      const status = statusOf(error);
      const invalidGrant = (error as { response?: { data?: { error?: string } } }).response?.data?.error;
      if (status === 401 || invalidGrant === 'invalid_grant')
        throw new CalendarReadError('Google refused the calendar tokens; connect again', 'sign-in');
      throw apiError(error);
    }
  }
  return { api, call, requests: () => requests, refreshed: () => refreshed };
}

/** The consent screen's address: offline access (a refresh token), asked again each time, our scopes. */
export function googleAuthUrl(options: { clientId: string; redirectUri: string; state: string }): string {
  const client = new auth.OAuth2({ clientId: options.clientId, redirectUri: options.redirectUri });
  return client.generateAuthUrl({
    access_type: 'offline',
    // Google hands out a refresh token only on the first consent unless asked again.
    prompt: 'consent',
    scope: GOOGLE_SCOPES,
    state: options.state,
  });
}

/** The code from the consent redirect exchanged for tokens (a refresh token is required: offline access). */
export async function exchangeCode(app: GoogleApp, code: string): Promise<GoogleTokens> {
  const { tokens } = await oauthClient(app)
    .getToken(code)
    .catch((error: unknown) => {
      throw apiError(error);
    });
  if (!tokens.access_token || !tokens.refresh_token)
    throw new GoogleAuthError('Google gave no refresh token; connect again');
  return {
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    expiresAt: tokens.expiry_date ? new Date(tokens.expiry_date) : null,
  };
}

/** Revokes a token at Google (the refresh token ends the whole grant); an already revoked one is fine. */
export async function revoke(app: GoogleApp, token: string): Promise<void> {
  try {
    await oauthClient(app).revokeToken(token);
  } catch (error) {
    if (statusOf(error) !== 400) throw apiError(error);
  }
}

/** The calendars the owner can choose from, the primary one first. */
export async function listGoogleCalendars(app: GoogleApp, tokens: GoogleTokens) {
  const google = session(app, tokens);
  const { data } = await google.call(() => google.api.calendarList.list({ minAccessRole: 'owner' }));
  const calendars = (data.items ?? [])
    .filter((entry) => entry.id)
    .map((entry) => ({ id: entry.id as string, name: entry.summary ?? '', primary: Boolean(entry.primary) }))
    .sort((a, b) => Number(b.primary) - Number(a.primary));
  return { calendars, tokens: google.refreshed() };
}

type EventsPage = calendar_v3.Schema$Events;

/** At most this many pages of 250 events (25,000) are followed: a calendar that keeps paging is not read. */
const MAX_PAGES = 100;

/** Every page of one events.list query; the sync token comes on the last page. */
async function allPages(google: ReturnType<typeof session>, params: calendar_v3.Params$Resource$Events$List) {
  const items: calendar_v3.Schema$Event[] = [];
  let page: EventsPage;
  let pageToken: string | undefined;
  let pages = 0;
  do {
    pages += 1;
    if (pages > MAX_PAGES) throw new CalendarReadError('Google kept paging', 'unreadable');
    const query = { ...params, ...(pageToken ? { pageToken } : {}) };
    page = (await google.call(() => google.api.events.list(query))).data;
    items.push(...(page.items ?? []));
    pageToken = page.nextPageToken ?? undefined;
  } while (pageToken);
  return { items, summary: page.summary ?? '', syncToken: page.nextSyncToken ?? null };
}

/**
 * Reads one Google calendar (the primary one when `calendarId` is null, on first connect): a full sync
 * over `window` the first time or when Google forgot the sync token (410), then only the changes since,
 * merged into `before`. Sync-token requests carry no timeMin/timeMax (Google refuses them together), so
 * changes are kept to the window here.
 */
export async function readGoogle(
  app: GoogleApp,
  tokens: GoogleTokens,
  calendarId: string | null,
  state: Pick<ReadState, 'syncToken'>,
  window: IcsWindow,
  before: readonly StoredEvent[],
): Promise<ReadResult & { tokens: GoogleTokens | null }> {
  const google = session(app, tokens);
  let calendarRef = calendarId;
  let name = '';
  if (!calendarRef) {
    const { data } = await google.call(() => google.api.calendarList.list({ minAccessRole: 'owner' }));
    const chosen = data.items?.find((entry) => entry.primary) ?? data.items?.[0];
    if (!chosen?.id) throw new CalendarReadError('The Google account has no calendar', 'no-calendar');
    calendarRef = chosen.id;
    name = chosen.summary ?? '';
  }
  const base = { calendarId: calendarRef, singleEvents: true, maxResults: 250 };
  const done = (events: StoredEvent[], syncToken: string | null, summary: string) => ({
    events,
    state: { syncToken, ctag: null },
    name: name || summary,
    calendarRef,
    requests: google.requests(),
    tokens: google.refreshed(),
  });
  if (state.syncToken) {
    try {
      const changes = await allPages(google, { ...base, syncToken: state.syncToken });
      return done(mergeGoogleChanges(before, changes.items, window), changes.syncToken, changes.summary);
    } catch (error) {
      if (statusOf(error) !== 410) throw error;
    }
  }
  const full = await allPages(google, {
    ...base,
    timeMin: window.from.toISOString(),
    timeMax: window.to.toISOString(),
  });
  const events = full.items.flatMap((item) => toCalendarEvent(item) ?? []);
  return done(events, full.syncToken, full.summary);
}

/** Opens a push channel on the calendar's events, with a fresh random token Google sends back each push. */
export async function watchGoogle(
  app: GoogleApp,
  tokens: GoogleTokens,
  options: { calendarId: string; address: string; ttlSeconds?: number },
): Promise<{ channel: GoogleChannel; tokens: GoogleTokens | null }> {
  const google = session(app, tokens);
  const token = randomBytes(32).toString('base64url');
  const { data } = await google.call(() =>
    google.api.events.watch({
      calendarId: options.calendarId,
      requestBody: {
        id: randomUUID(),
        type: 'web_hook',
        address: options.address,
        token,
        ...(options.ttlSeconds ? { params: { ttl: String(options.ttlSeconds) } } : {}),
      },
    }),
  );
  if (!data.id || !data.resourceId) throw new Error('Google answered a channel without id or resourceId');
  const channel = {
    id: data.id,
    resourceId: data.resourceId,
    token,
    expiration: new Date(Number(data.expiration)),
  };
  return { channel, tokens: google.refreshed() };
}

/** Stops a push channel; one Google no longer knows (expired, stopped) is fine. */
export async function stopGoogleChannel(
  app: GoogleApp,
  tokens: GoogleTokens,
  channel: Pick<GoogleChannel, 'id' | 'resourceId'>,
): Promise<{ tokens: GoogleTokens | null }> {
  const google = session(app, tokens);
  try {
    await google.call(() =>
      google.api.channels.stop({ requestBody: { id: channel.id, resourceId: channel.resourceId } }),
    );
  } catch (error) {
    if (statusOf(error) !== 404) throw error;
  }
  return { tokens: google.refreshed() };
}

const digest = (value: string) => createHash('sha256').update(value).digest();
const header = (headers: Record<string, string | string[] | undefined>, name: string) => {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * A push to our endpoint checked against the channel we opened: its id, and its token compared in constant
 * time (digests, so the length leaks nothing either). 'sync' is Google's hello when a channel opens;
 * 'changed' means read the calendar now.
 */
export function verifyGooglePush(
  headers: Record<string, string | string[] | undefined>,
  expected: Pick<GoogleChannel, 'id' | 'token'>,
): 'sync' | 'changed' | 'refused' {
  const channelId = header(headers, 'x-goog-channel-id');
  const token = header(headers, 'x-goog-channel-token');
  if (channelId !== expected.id || token === undefined) return 'refused';
  if (!timingSafeEqual(digest(token), digest(expected.token))) return 'refused';
  const state = header(headers, 'x-goog-resource-state');
  if (state === 'sync') return 'sync';
  return state === 'exists' || state === 'not_exists' ? 'changed' : 'refused';
}

/** Writes a claimed slot into the calendar, with the customer's name and phone and our marker. */
export async function writeGoogleBooking(
  app: GoogleApp,
  tokens: GoogleTokens,
  calendarId: string,
  booking: GoogleBooking,
): Promise<{ eventId: string; etag: string | null; tokens: GoogleTokens | null }> {
  const google = session(app, tokens);
  const what = booking.serviceName ? `${booking.serviceName} – ` : '';
  const { data } = await google.call(() =>
    google.api.events.insert({
      calendarId,
      requestBody: {
        summary: `${what}${booking.customerName} (${booking.customerPhone})`,
        description: `Booked from the waitlist.\nCustomer: ${booking.customerName}\nPhone: ${booking.customerPhone}`,
        start: { dateTime: booking.start.toISOString() },
        end: { dateTime: booking.end.toISOString() },
        status: 'confirmed',
        extendedProperties: { private: { [GOOGLE_OURS_PROPERTY]: booking.openingId } },
      },
    }),
  );
  if (!data.id) throw new Error('Google answered an event without id');
  return { eventId: data.id, etag: data.etag ?? null, tokens: google.refreshed() };
}

/** Removes a booking we wrote; one already deleted (410) or missing (404) is fine. */
export async function deleteGoogleBooking(
  app: GoogleApp,
  tokens: GoogleTokens,
  calendarId: string,
  eventId: string,
): Promise<{ tokens: GoogleTokens | null }> {
  const google = session(app, tokens);
  try {
    await google.call(() => google.api.events.delete({ calendarId, eventId }));
  } catch (error) {
    const status = statusOf(error);
    if (status !== 404 && status !== 410) throw error;
  }
  return { tokens: google.refreshed() };
}
