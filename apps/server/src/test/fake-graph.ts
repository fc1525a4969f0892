import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEvent, deleteEvent, delta } from './fake-graph/events.ts';
import { tokenGrant } from './fake-graph/identity.ts';
import type { Answer, FakeGraph, FakeGraphEvent, GraphState } from './fake-graph/state.ts';
import { graphError, randomToken, readBody } from './fake-graph/state.ts';
import { changeSubscription, lifecycle, notify, subscribe } from './fake-graph/subscriptions.ts';

export type { FakeGraph, FakeGraphEvent, FakeGraphSubscription } from './fake-graph/state.ts';

/**
 * A local HTTP server speaking the parts of the Microsoft identity platform (v2.0 token endpoint at
 * /common/oauth2/v2.0/token) and Microsoft Graph v1.0 the Microsoft calendar provider uses: the
 * authorization-code and refresh-token grants, /me and /me/calendars, calendarView delta (pages by
 * $skiptoken, a $deltatoken for the next round, removed items as `@removed`, a forgotten token as 410
 * SyncStateNotFound), subscriptions with Graph's validation handshake, event create and delete. Every Graph
 * call checks its bearer token (401 InvalidAuthenticationToken otherwise). Recurring series are not
 * expanded: a test adds each occurrence it wants (type, seriesMasterId, originalStart), which is what a
 * calendarView answers anyway.
 */

function controls(
  state: GraphState,
  close: () => Promise<void>,
): Omit<FakeGraph, 'url' | 'requests' | 'pageSize'> {
  const fake = () => state.fake;
  return {
    clientId: randomUUID(),
    clientSecret: randomToken(),
    owner: 'owner@contoso.test',
    calendars: [
      { id: 'AAMkCalendar', name: 'Calendar', isDefaultCalendar: true },
      { id: 'AAMkBirthdays', name: 'Birthdays', isDefaultCalendar: false },
    ],
    events: new Map(),
    subscriptions: new Map(),
    issueCode(redirectUri, scope = 'offline_access Calendars.ReadWrite User.Read') {
      const code = randomToken();
      state.codes.set(code, { redirectUri, scope });
      return code;
    },
    expireAccessTokens: () => state.accessTokens.clear(),
    revokeRefreshTokens: () => state.refreshTokens.clear(),
    expireDeltaTokens() {
      state.rounds.clear();
      state.pages.clear();
    },
    addEvent(calendarId, event) {
      const made: FakeGraphEvent = {
        iCalUId: `040000008200E00074C5B7101A82E008${randomBytes(16).toString('hex')}`,
        subject: '',
        isAllDay: false,
        isCancelled: false,
        type: 'singleInstance',
        seriesMasterId: null,
        originalStart: null,
        organizer: fake().owner,
        attendees: [],
        transactionId: null,
        singleValueExtendedProperties: [],
        body: null,
        deleted: false,
        ...event,
        id: event.id ?? `AAMkEvent-${randomUUID()}`,
        calendarId,
        version: ++state.version,
      };
      fake().events.set(made.id, made);
      return made;
    },
    changeEvent(id, change) {
      const event = fake().events.get(id);
      if (!event) throw new Error(`No event ${id}`);
      Object.assign(event, change, { version: ++state.version });
      return event;
    },
    deleteEvent: (id) => {
      fake().changeEvent(id, { deleted: true });
    },
    notify: (subscriptionId, change = {}) => notify(state, subscriptionId, change),
    lifecycle: (subscriptionId, event, clientState) => lifecycle(state, subscriptionId, event, clientState),
    close,
  };
}

async function graph(state: GraphState, method: string, url: URL, request: IncomingMessage): Promise<Answer> {
  const { fake } = state;
  const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
  if (!bearer || !state.accessTokens.has(bearer))
    return graphError(401, 'InvalidAuthenticationToken', 'Access token has expired or is not yet valid.');
  const utc = /outlook\.timezone="UTC"/.test(String(request.headers.prefer ?? ''));
  const json = async () => JSON.parse((await readBody(request)) || '{}');
  const path = url.pathname;
  if (method === 'GET' && path === '/v1.0/me') {
    const me = { id: randomUUID(), displayName: 'Owner', mail: fake.owner, userPrincipalName: fake.owner };
    return { status: 200, body: me };
  }
  if (method === 'GET' && path === '/v1.0/me/calendars') {
    const value = fake.calendars.map((calendar) => ({
      ...calendar,
      canEdit: true,
      owner: { address: fake.owner },
    }));
    return { status: 200, body: { value } };
  }
  const id = (pattern: RegExp) => {
    const match = pattern.exec(path)?.[1];
    return match === undefined ? undefined : decodeURIComponent(match);
  };
  const deltaOf = id(/^\/v1\.0\/me\/calendars\/([^/]+)\/calendarView\/delta$/);
  if (method === 'GET' && deltaOf) return delta(state, deltaOf, url.searchParams, utc);
  const eventsOf = id(/^\/v1\.0\/me\/calendars\/([^/]+)\/events$/);
  if (method === 'POST' && eventsOf) return createEvent(state, eventsOf, await json(), utc);
  const event = id(/^\/v1\.0\/me\/events\/([^/]+)$/);
  if (method === 'DELETE' && event) return deleteEvent(state, event);
  if (method === 'POST' && path === '/v1.0/subscriptions') return subscribe(state, await json());
  const subscription = id(/^\/v1\.0\/subscriptions\/([^/]+)$/);
  if ((method === 'PATCH' || method === 'DELETE') && subscription)
    return changeSubscription(state, method, subscription, method === 'PATCH' ? await json() : {});
  return graphError(400, 'BadRequest', `Unsupported request ${method} ${path}`);
}

async function handle(state: GraphState, request: IncomingMessage, response: ServerResponse) {
  const url = new URL(request.url ?? '/', state.fake.url);
  const method = request.method ?? 'GET';
  let answer: Answer;
  if (method === 'POST' && url.pathname === '/common/oauth2/v2.0/token')
    answer = tokenGrant(state, new URLSearchParams(await readBody(request)));
  else if (url.pathname.startsWith('/v1.0/')) answer = await graph(state, method, url, request);
  else answer = { status: 404, text: 'Not found' };
  state.fake.requests.push({
    method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: request.headers,
    status: answer.status,
  });
  if (answer.body !== undefined) {
    response.writeHead(answer.status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(answer.body));
  } else {
    response.writeHead(answer.status, { 'content-type': 'text/plain' });
    response.end(answer.text ?? '');
  }
}

export async function startFakeGraph(): Promise<FakeGraph> {
  const state = {
    codes: new Map(),
    accessTokens: new Set(),
    refreshTokens: new Map(),
    rounds: new Map(),
    pages: new Map(),
    version: 0,
  } as Omit<GraphState, 'fake'> as GraphState;
  const server = createServer((request, response) => {
    handle(state, request, response).catch((error: Error) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { code: 'InternalServerError', message: error.message } }));
    });
  });
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.fake = { ...controls(state, close), url, requests: [], pageSize: 2 };
  return state.fake;
}
