import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The fake Google's state and the wire format of its token, events and watch endpoints (fake-google.ts serves them). */
export interface FakeGoogleEvent {
  id: string;
  iCalUID: string;
  etag: string;
  status: 'confirmed' | 'tentative' | 'cancelled';
  summary?: string;
  start?: { dateTime?: string; date?: string };
  end?: { dateTime?: string; date?: string };
  attendees?: { email: string; responseStatus?: string; organizer?: boolean; self?: boolean }[];
  recurringEventId?: string;
  originalStartTime?: { dateTime: string };
  extendedProperties?: { private?: Record<string, string> };
  description?: string;
  /** Deleted (Google answers a bare `cancelled` item in incremental syncs, and 410 to a second delete). */
  deleted?: boolean;
  /** The change counter when it last changed (what sync tokens compare). */
  sequence: number;
}

export interface RecordedGoogleRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  status: number;
}

export interface FakeGoogleChannel {
  id: string;
  resourceId: string;
  token: string | undefined;
  address: string;
  calendarId: string;
  expiration: number;
  messages: number;
  stopped: boolean;
}

export interface FakeGoogle {
  url: string;
  clientId: string;
  clientSecret: string;
  calendarId: string;
  requests: RecordedGoogleRequest[];
  events: Map<string, FakeGoogleEvent>;
  channels: Map<string, FakeGoogleChannel>;
  /** Access and refresh tokens still valid. */
  accessTokens: Set<string>;
  refreshTokens: Set<string>;
  revoked: string[];
  /** Events per page of events.list (Google's maxResults; small so paging is exercised). */
  pageSize: number;
  /** A code the consent screen would hand back for this redirect address. */
  authorize(redirectUri: string): string;
  /** A timed event (`dateTime`) or an all-day one (`date`). */
  addEvent(
    event: Partial<FakeGoogleEvent> & Required<Pick<FakeGoogleEvent, 'start' | 'end'>>,
  ): FakeGoogleEvent;
  moveEvent(id: string, start: string, end: string): void;
  /** Status `cancelled`, the event kept whole (how Google shows a cancelled occurrence). */
  cancelEvent(id: string): void;
  deleteEvent(id: string): void;
  /** Every sync token given so far answers 410 from now on. */
  expireSyncTokens(): void;
  /** Every access token given so far answers 401 from now on (refresh tokens still work). */
  expireAccessTokens(): void;
  /** Sends a push notification as Google does; resolves with the receiver's status. */
  notify(channelId: string, state: 'sync' | 'exists' | 'not_exists', token?: string): Promise<number>;
  close(): Promise<void>;
}

export interface State {
  fake: Omit<FakeGoogle, 'url' | 'close'>;
  codes: Map<string, string>;
  /** Sync tokens below this counter are no longer valid. */
  oldestSync: number;
  sequence: number;
  url: string;
}

export const googleError = (code: number, message: string, reason: string, domain = 'global') => ({
  error: { code, message, errors: [{ domain, reason, message }] },
});

export const GONE = googleError(
  410,
  'Sync token is no longer valid, a full sync is required.',
  'fullSyncRequired',
  'calendar',
);

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export const tick = (state: State) => {
  state.sequence += 1;
  return state.sequence;
};

export function tokenRoutes(state: State, form: URLSearchParams): [number, unknown] {
  const { fake } = state;
  if (form.get('client_id') !== fake.clientId || form.get('client_secret') !== fake.clientSecret) {
    return [401, { error: 'invalid_client', error_description: 'The OAuth client was not found.' }];
  }
  const accessToken = `ya29.${randomUUID()}`;
  if (form.get('grant_type') === 'authorization_code') {
    const redirect = state.codes.get(form.get('code') ?? '');
    if (!redirect || redirect !== form.get('redirect_uri')) {
      return [400, { error: 'invalid_grant', error_description: 'Malformed auth code.' }];
    }
    state.codes.delete(form.get('code') ?? '');
    const refreshToken = `1//${randomUUID()}`;
    fake.accessTokens.add(accessToken);
    fake.refreshTokens.add(refreshToken);
    return [
      200,
      {
        access_token: accessToken,
        refresh_token: refreshToken,
        expires_in: 3599,
        token_type: 'Bearer',
        scope: 'https://www.googleapis.com/auth/calendar.events.owned',
      },
    ];
  }
  if (form.get('grant_type') === 'refresh_token') {
    if (!fake.refreshTokens.has(form.get('refresh_token') ?? '')) {
      return [400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' }];
    }
    fake.accessTokens.add(accessToken);
    return [200, { access_token: accessToken, expires_in: 3599, token_type: 'Bearer' }];
  }
  return [400, { error: 'unsupported_grant_type' }];
}

const endOf = (event: FakeGoogleEvent) => Date.parse(event.end?.dateTime ?? event.end?.date ?? '');
const startOf = (event: FakeGoogleEvent) => Date.parse(event.start?.dateTime ?? event.start?.date ?? '');

/** What an incremental sync shows of a deleted event: Google's bare tombstone. */
export const shown = (event: FakeGoogleEvent) => {
  const { sequence: _sequence, deleted, ...resource } = event;
  if (deleted) return { kind: 'calendar#event', etag: event.etag, id: event.id, status: 'cancelled' };
  return { kind: 'calendar#event', ...resource };
};

/** events.list: a full listing (window, no cancelled) or the changes since a sync token, paged. */
export function listEvents(state: State, query: URLSearchParams): [number, unknown] {
  const syncToken = query.get('syncToken');
  if (syncToken && (query.has('timeMin') || query.has('timeMax'))) {
    return [400, googleError(400, 'Sync token cannot be used with timeMin or timeMax.', 'invalid')];
  }
  let page: { at: number; offset: number };
  const pageToken = query.get('pageToken');
  if (pageToken) page = JSON.parse(Buffer.from(pageToken, 'base64url').toString('utf8'));
  else page = { at: state.sequence, offset: 0 };
  let matching: FakeGoogleEvent[];
  if (syncToken) {
    const since = Number(/^sync-(\d+)$/.exec(syncToken)?.[1] ?? Number.NaN);
    if (!(since >= state.oldestSync)) return [410, GONE];
    matching = [...state.fake.events.values()].filter((e) => e.sequence > since);
  } else {
    const from = query.has('timeMin') ? Date.parse(query.get('timeMin') ?? '') : Number.NEGATIVE_INFINITY;
    const to = query.has('timeMax') ? Date.parse(query.get('timeMax') ?? '') : Number.POSITIVE_INFINITY;
    matching = [...state.fake.events.values()].filter(
      (e) => !e.deleted && e.status !== 'cancelled' && endOf(e) > from && startOf(e) < to,
    );
  }
  const size = Math.min(state.fake.pageSize, Number(query.get('maxResults') ?? 250));
  const items = matching.slice(page.offset, page.offset + size).map(shown);
  const more = page.offset + size < matching.length;
  const next = Buffer.from(JSON.stringify({ at: page.at, offset: page.offset + size })).toString('base64url');
  return [
    200,
    {
      kind: 'calendar#events',
      summary: 'Salon',
      timeZone: 'UTC',
      items,
      ...(more ? { nextPageToken: next } : { nextSyncToken: `sync-${page.at}` }),
    },
  ];
}

/** events.insert: Google's own id unless the client chose one (409 when it is taken, deleted or not). */
export function insertEvent(state: State, body: Partial<FakeGoogleEvent>): [number, unknown] {
  if (!body.start?.dateTime || !body.end?.dateTime) {
    return [400, googleError(400, 'Missing end time.', 'required')];
  }
  if (body.id && state.fake.events.has(body.id)) {
    return [409, googleError(409, 'The requested identifier already exists.', 'duplicate')];
  }
  const { sequence: _sequence, deleted: _deleted, etag: _etag, ...resource } = body;
  const event = state.fake.addEvent({ ...resource, start: body.start, end: body.end });
  return [200, shown(event)];
}

export function watchEvents(
  state: State,
  calendarId: string,
  body: Record<string, unknown>,
): [number, unknown] {
  if (body.type !== 'web_hook' || typeof body.address !== 'string' || typeof body.id !== 'string') {
    return [400, googleError(400, 'Invalid channel.', 'invalid')];
  }
  const ttl = Number((body.params as { ttl?: string } | undefined)?.ttl ?? 604_800);
  const channel: FakeGoogleChannel = {
    id: body.id,
    resourceId: `res-${randomUUID()}`,
    token: typeof body.token === 'string' ? body.token : undefined,
    address: body.address,
    calendarId,
    expiration: Date.now() + ttl * 1000,
    messages: 0,
    stopped: false,
  };
  state.fake.channels.set(channel.id, channel);
  return [
    200,
    {
      kind: 'api#channel',
      id: channel.id,
      resourceId: channel.resourceId,
      resourceUri: `${state.url}/calendar/v3/calendars/${encodeURIComponent(calendarId)}/events?alt=json`,
      ...(channel.token ? { token: channel.token } : {}),
      expiration: String(channel.expiration),
    },
  ];
}
