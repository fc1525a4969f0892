import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server speaking the parts of Google's wire format the Google Calendar provider uses, so the
 * official client (`@googleapis/calendar`, google-auth-library) can be pointed at it: the OAuth token and
 * revoke endpoints, calendarList, events list (singleEvents, timeMin/timeMax, paging, sync tokens with
 * `410 fullSyncRequired`), watch and channels.stop, insert and delete. Every API call checks its bearer
 * token (401 otherwise). Recurring events are not expanded here: a test adds each instance it wants, with
 * `recurringEventId` and `originalStartTime`, which is what `singleEvents=true` answers anyway.
 */

import {
  type FakeGoogle,
  type FakeGoogleEvent,
  googleError,
  insertEvent,
  listEvents,
  readBody,
  type State,
  tick,
  tokenRoutes,
  watchEvents,
} from './fake-google-api.ts';

export type { FakeGoogle, FakeGoogleEvent } from './fake-google-api.ts';

function apiRoutes(
  state: State,
  method: string,
  path: string,
  query: URLSearchParams,
  body: unknown,
): [number, unknown] {
  const { fake } = state;
  if (method === 'GET' && path === '/calendar/v3/users/me/calendarList') {
    return [
      200,
      {
        kind: 'calendar#calendarList',
        items: [
          {
            kind: 'calendar#calendarListEntry',
            id: fake.calendarId,
            summary: 'Salon',
            primary: true,
            accessRole: 'owner',
            timeZone: 'UTC',
          },
        ],
      },
    ];
  }
  if (method === 'POST' && path === '/calendar/v3/channels/stop') {
    const { id, resourceId } = body as { id?: string; resourceId?: string };
    const channel = fake.channels.get(id ?? '');
    if (!channel || channel.resourceId !== resourceId || channel.stopped) {
      return [404, googleError(404, `Channel '${id}' not found for project`, 'notFound')];
    }
    channel.stopped = true;
    return [204, null];
  }
  const match = /^\/calendar\/v3\/calendars\/([^/]+)\/events(?:\/([^/]+))?$/.exec(path);
  const calendarId = decodeURIComponent(match?.[1] ?? '');
  if (!match || (calendarId !== fake.calendarId && calendarId !== 'primary')) {
    return [404, googleError(404, 'Not Found', 'notFound')];
  }
  const eventId = match[2] ? decodeURIComponent(match[2]) : undefined;
  if (method === 'GET' && !eventId) return listEvents(state, query);
  if (method === 'POST' && !eventId) return insertEvent(state, body as Partial<FakeGoogleEvent>);
  if (method === 'POST' && eventId === 'watch')
    return watchEvents(state, calendarId, body as Record<string, unknown>);
  if (method === 'DELETE' && eventId) {
    const event = fake.events.get(eventId);
    if (!event) return [404, googleError(404, 'Not Found', 'notFound')];
    if (event.deleted) return [410, googleError(410, 'Resource has been deleted', 'deleted')];
    fake.deleteEvent(eventId);
    return [204, null];
  }
  return [404, googleError(404, 'Not Found', 'notFound')];
}

async function handle(state: State, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', state.url);
  const text = await readBody(req);
  const method = req.method ?? 'GET';
  let status: number;
  let answer: unknown;
  let body: unknown = text;
  if (method === 'POST' && url.pathname === '/token') {
    const form = new URLSearchParams(text);
    body = Object.fromEntries(form);
    [status, answer] = tokenRoutes(state, form);
  } else if (method === 'POST' && url.pathname === '/revoke') {
    const token = url.searchParams.get('token') ?? new URLSearchParams(text).get('token') ?? '';
    const known = state.fake.accessTokens.delete(token) || state.fake.refreshTokens.delete(token);
    if (known) state.fake.revoked.push(token);
    [status, answer] = known
      ? [200, {}]
      : [400, { error: 'invalid_token', error_description: 'Bad Request' }];
  } else {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    body = text ? JSON.parse(text) : null;
    if (!bearer || !state.fake.accessTokens.has(bearer)) {
      [status, answer] = [
        401,
        googleError(401, 'Request had invalid authentication credentials.', 'authError'),
      ];
    } else {
      [status, answer] = apiRoutes(state, method, url.pathname, url.searchParams, body);
    }
  }
  const query = Object.fromEntries(url.searchParams);
  state.fake.requests.push({ method, path: url.pathname, query, body, status });
  res.writeHead(status, answer === null ? {} : { 'content-type': 'application/json; charset=UTF-8' });
  res.end(answer === null ? undefined : JSON.stringify(answer));
}

function controls(
  state: State,
): Pick<
  FakeGoogle,
  | 'authorize'
  | 'addEvent'
  | 'moveEvent'
  | 'cancelEvent'
  | 'deleteEvent'
  | 'expireSyncTokens'
  | 'expireAccessTokens'
  | 'notify'
> {
  const event = (id: string) => {
    const found = state.fake.events.get(id);
    if (!found) throw new Error(`No event ${id} in the fake Google calendar`);
    return found;
  };
  const touch = (changed: FakeGoogleEvent) => {
    changed.sequence = tick(state);
    changed.etag = `"${changed.sequence}"`;
  };
  return {
    authorize(redirectUri) {
      const code = `4/${randomUUID()}`;
      state.codes.set(code, redirectUri);
      return code;
    },
    addEvent(input) {
      const id = input.id ?? randomUUID().replaceAll('-', '');
      const sequence = tick(state);
      const created: FakeGoogleEvent = {
        status: 'confirmed',
        iCalUID: `${id}@google.com`,
        ...input,
        id,
        etag: `"${sequence}"`,
        sequence,
      };
      state.fake.events.set(id, created);
      return created;
    },
    moveEvent(id, start, end) {
      const moved = event(id);
      moved.start = { dateTime: start };
      moved.end = { dateTime: end };
      touch(moved);
    },
    cancelEvent(id) {
      event(id).status = 'cancelled';
      touch(event(id));
    },
    deleteEvent(id) {
      const deleted = event(id);
      deleted.deleted = true;
      deleted.status = 'cancelled';
      touch(deleted);
    },
    expireSyncTokens() {
      state.oldestSync = state.sequence + 1;
    },
    expireAccessTokens() {
      state.fake.accessTokens.clear();
    },
    async notify(channelId, resourceState, token) {
      const channel = state.fake.channels.get(channelId);
      if (!channel) throw new Error(`No channel ${channelId}`);
      channel.messages += 1;
      const response = await fetch(channel.address, {
        method: 'POST',
        headers: {
          'X-Goog-Channel-ID': channel.id,
          ...((token ?? channel.token) ? { 'X-Goog-Channel-Token': token ?? channel.token } : {}),
          'X-Goog-Channel-Expiration': new Date(channel.expiration).toUTCString(),
          'X-Goog-Resource-ID': channel.resourceId,
          'X-Goog-Resource-URI': `${state.url}/calendar/v3/calendars/${encodeURIComponent(channel.calendarId)}/events?alt=json`,
          'X-Goog-Resource-State': resourceState,
          'X-Goog-Message-Number': String(channel.messages),
        } as Record<string, string>,
      });
      await response.arrayBuffer();
      return response.status;
    },
  };
}

/** Starts the fake on a free local port. */
export async function startFakeGoogle(): Promise<FakeGoogle> {
  const state: State = {
    codes: new Map(),
    oldestSync: 0,
    sequence: 0,
    url: '',
    fake: undefined as unknown as State['fake'],
  };
  state.fake = {
    clientId: 'waitlist-test.apps.googleusercontent.com',
    clientSecret: 'GOCSPX-test-secret',
    calendarId: 'owner@salon.example',
    requests: [],
    events: new Map(),
    channels: new Map(),
    accessTokens: new Set(),
    refreshTokens: new Set(),
    revoked: [],
    pageSize: 2,
    ...controls(state),
  };
  const server = createServer((req, res) => {
    handle(state, req, res).catch((error: Error) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify(googleError(500, error.message, 'backendError')));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state.fake, {
    url: state.url,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  });
}
