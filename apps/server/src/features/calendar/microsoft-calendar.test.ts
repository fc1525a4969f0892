import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeGraph, startFakeGraph } from '../../test/fake-graph.ts';
import type { StoredEvent } from './calendar.repo.ts';
import { CalendarReadError } from './calendar-reader.ts';
import { detectChanges } from './changes.ts';
import {
  exchangeMicrosoftCode,
  GraphError,
  type MicrosoftApp,
  MicrosoftAuthError,
  type MicrosoftTokens,
  microsoftAuthUrl,
} from './microsoft-auth.ts';
import {
  answerValidation,
  deleteMicrosoftBooking,
  deleteMicrosoftSubscription,
  MICROSOFT_OURS_PROPERTY,
  readMicrosoft,
  renewMicrosoftSubscription,
  subscribeMicrosoft,
  toMicrosoftEvent,
  verifyMicrosoftNotification,
  writeMicrosoftBooking,
} from './microsoft-calendar.ts';

const REDIRECT = 'https://app.example.test/api/v1/calendar/microsoft/callback';
const CALENDAR = 'AAMkCalendar';
const NOW = new Date(Date.now() + 86_400_000);
const at = (hours: number) => new Date(NOW.getTime() + hours * 3_600_000).toISOString();
const window = { from: new Date(NOW.getTime() - 86_400_000), to: new Date(NOW.getTime() + 30 * 86_400_000) };
const fresh = { syncToken: null, ctag: null };

let graph: FakeGraph;
let app: MicrosoftApp;
let tokens: MicrosoftTokens;

/** The business's own endpoint: Graph's handshake answered by answerValidation, notifications recorded. */
let endpoint: { server: Server; url: string; received: unknown[]; answering: boolean };

beforeAll(async () => {
  graph = await startFakeGraph();
  const received: unknown[] = [];
  const server = createServer(async (request, response) => {
    const query = Object.fromEntries(new URL(request.url ?? '/', 'http://x').searchParams);
    const handshake = answerValidation(query);
    if (handshake && endpoint.answering) {
      response.writeHead(handshake.status, { 'content-type': handshake.contentType });
      response.end(handshake.body);
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (chunks.length > 0) received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    response.writeHead(202);
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    answering: true,
  };
});
afterAll(async () => {
  await graph?.close();
  await new Promise((resolve) => endpoint?.server.close(resolve));
});

beforeEach(async () => {
  graph.events.clear();
  graph.pageSize = 2;
  app = {
    clientId: graph.clientId,
    clientSecret: graph.clientSecret,
    redirectUri: REDIRECT,
    authority: `${graph.url}/common`,
    graph: graph.url,
    fetch: globalThis.fetch,
  };
  tokens = await exchangeMicrosoftCode(app, graph.issueCode(REDIRECT));
});

/** The owner's week: a cut, a colour with a client, a daily occurrence, an all-day day off, a declined one. */
function seed() {
  return {
    cut: graph.addEvent(CALENDAR, { subject: 'Cut – Priya', start: at(5), end: at(6) }),
    colour: graph.addEvent(CALENDAR, {
      subject: 'Colour',
      start: at(8),
      end: at(10),
      attendees: [
        { address: 'ana@example.test', response: 'accepted' },
        { address: 'bo@example.test', response: 'declined' },
        { address: graph.owner, response: 'organizer' },
      ],
    }),
    standing: graph.addEvent(CALENDAR, {
      subject: 'Standing blow-dry',
      start: at(28),
      end: at(29),
      type: 'occurrence',
      seriesMasterId: 'AAMkSeries',
      originalStart: at(28),
    }),
    dayOff: graph.addEvent(CALENDAR, { subject: 'Day off', start: at(48), end: at(72), isAllDay: true }),
    trim: graph.addEvent(CALENDAR, { subject: 'Trim', start: at(50), end: at(51) }),
    other: graph.addEvent('AAMkBirthdays', { subject: 'Birthday', start: at(9), end: at(10) }),
  };
}

const byTitle = (events: StoredEvent[], title: string) => events.find((event) => event.title === title);

describe('signing in to Microsoft', () => {
  it('sends the owner to consent with offline access, calendars and profile, and the state echoed', () => {
    const url = new URL(microsoftAuthUrl({ clientId: 'client-1', redirectUri: REDIRECT, state: 's-1' }));
    expect(url.origin + url.pathname).toBe('https://login.microsoftonline.com/common/oauth2/v2.0/authorize');
    expect(url.searchParams.get('scope')).toBe('offline_access Calendars.ReadWrite User.Read');
    expect(url.searchParams.get('client_id')).toBe('client-1');
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('state')).toBe('s-1');
    const tenant = microsoftAuthUrl({
      clientId: 'c',
      redirectUri: REDIRECT,
      state: 's',
      authority: graph.url,
    });
    expect(tenant.startsWith(`${graph.url}/oauth2/v2.0/authorize?`)).toBe(true);
  });

  it('exchanges the code for tokens once, and wants a refresh token', async () => {
    expect(tokens.refreshToken).toEqual(expect.any(String));
    expect(tokens.expiresAt!.getTime()).toBeGreaterThan(Date.now());
    const code = graph.issueCode(REDIRECT);
    await exchangeMicrosoftCode(app, code);
    await expect(exchangeMicrosoftCode(app, code)).rejects.toThrow(MicrosoftAuthError);
    const noOffline = graph.issueCode(REDIRECT, 'Calendars.ReadWrite User.Read');
    await expect(exchangeMicrosoftCode(app, noOffline)).rejects.toThrow(/no refresh token/);
    await expect(
      exchangeMicrosoftCode({ ...app, clientSecret: 'wrong' }, graph.issueCode(REDIRECT)),
    ).rejects.toThrow(/invalid_client/);
  });

  it('refreshes an access token Graph refuses (401) and hands back the new tokens; a revoked grant means sign in', async () => {
    seed();
    graph.expireAccessTokens();
    const read = await readMicrosoft(app, tokens, CALENDAR, fresh, window, []);
    expect(read.events).toHaveLength(4);
    expect(read.tokens?.accessToken).not.toBe(tokens.accessToken);
    expect(read.tokens?.refreshToken).toEqual(expect.any(String));
    const unauthorized = graph.requests.filter((request) => request.status === 401);
    expect(unauthorized.length).toBeGreaterThan(0);
    graph.expireAccessTokens();
    graph.revokeRefreshTokens();
    const refused = readMicrosoft(app, read.tokens!, CALENDAR, fresh, window, []);
    await expect(refused).rejects.toThrow(CalendarReadError);
    await expect(refused).rejects.toMatchObject({ reason: 'sign-in' });
  });

  it('refreshes before calling when the access token has expired by the clock', async () => {
    const later = { ...app, now: () => new Date(Date.now() + 2 * 3_600_000) };
    const before = graph.requests.length;
    const read = await readMicrosoft(later, tokens, CALENDAR, fresh, window, []);
    expect(read.tokens).not.toBeNull();
    expect(graph.requests.slice(before).every((request) => request.status !== 401)).toBe(true);
  });
});

describe('reading an Outlook calendar by delta', () => {
  it('reads every page of the first round in UTC, the default calendar chosen on first connect', async () => {
    seed();
    const mark = graph.requests.length;
    const read = await readMicrosoft(app, tokens, null, fresh, window, []);
    expect(read.calendarRef).toBe(CALENDAR);
    expect(read.name).toBe('Calendar');
    expect(read.events.map((event) => event.title).sort()).toEqual([
      'Colour',
      'Cut – Priya',
      'Standing blow-dry',
      'Trim',
    ]);
    const deltaCalls = graph.requests.slice(mark).filter((request) => request.path.endsWith('/delta'));
    expect(deltaCalls).toHaveLength(3); // five items in this calendar, two per page
    expect(read.requests).toBe(4); // the calendars, then three pages
    expect(graph.requests.slice(mark).every((r) => r.headers.prefer === 'outlook.timezone="UTC"')).toBe(true);
    expect(read.state.syncToken).toMatch(/\$deltatoken=/);
    const colour = byTitle(read.events, 'Colour')!;
    expect(colour).toMatchObject({
      start: new Date(at(8)),
      end: new Date(at(10)),
      attendees: 1,
      ours: false,
    });
    expect(byTitle(read.events, 'Standing blow-dry')?.recurrenceId).toBe(at(28));
    expect(byTitle(read.events, 'Cut – Priya')?.recurrenceId).toBeNull();
  });

  it('reads only the changes after that: a move, a deletion (@removed), a cancellation and a lost attendee', async () => {
    const { cut, colour, standing, trim } = seed();
    const first = await readMicrosoft(app, tokens, CALENDAR, fresh, window, []);
    graph.changeEvent(cut.id, { start: at(7), end: at(8) });
    graph.deleteEvent(trim.id);
    graph.changeEvent(standing.id, { isCancelled: true });
    graph.changeEvent(colour.id, { attendees: [{ address: 'ana@example.test', response: 'declined' }] });
    graph.pageSize = 10;
    const second = await readMicrosoft(app, tokens, CALENDAR, first.state, window, first.events);
    expect(second.requests).toBe(1);
    const lastDelta = graph.requests.at(-1)!;
    expect(lastDelta.query.$deltatoken).toBeDefined();
    expect(byTitle(second.events, 'Trim')).toBeUndefined();
    expect(byTitle(second.events, 'Cut – Priya')?.start).toEqual(new Date(at(7)));
    expect(byTitle(second.events, 'Standing blow-dry')?.status).toBe('cancelled');
    expect(byTitle(second.events, 'Colour')?.attendees).toBe(0);

    const changes = detectChanges(first.events, second.events, { now: NOW, horizonDays: 7, exclude: [] });
    expect(changes.cancellations.map((event) => event.title).sort()).toEqual([
      'Colour',
      'Standing blow-dry',
      'Trim',
    ]);
    expect(changes.moves.map((move) => move.to.title)).toEqual(['Cut – Priya']);

    const third = await readMicrosoft(app, tokens, CALENDAR, second.state, window, second.events);
    expect(third.events).toEqual(second.events);
  });

  it('reads the whole window again when Graph forgot the round (410 SyncStateNotFound)', async () => {
    const { cut } = seed();
    const first = await readMicrosoft(app, tokens, CALENDAR, fresh, window, []);
    graph.expireDeltaTokens();
    graph.deleteEvent(cut.id);
    const mark = graph.requests.length;
    const again = await readMicrosoft(app, tokens, CALENDAR, first.state, window, first.events);
    const calls = graph.requests.slice(mark);
    expect(calls[0]).toMatchObject({ status: 410 });
    expect(calls[1]?.query.startDateTime).toBe(window.from.toISOString());
    expect(again.events.map((event) => event.title).sort()).toEqual(['Colour', 'Standing blow-dry', 'Trim']);
    const changes = detectChanges(first.events, again.events, { now: NOW, horizonDays: 7, exclude: [] });
    expect(changes.cancellations.map((event) => event.title)).toEqual(['Cut – Priya']);
  });

  it('starts a new round when the window outgrows the last one', async () => {
    seed();
    const first = await readMicrosoft(app, tokens, CALENDAR, fresh, window, []);
    const later = { from: window.from, to: new Date(window.to.getTime() + 8 * 86_400_000) };
    const mark = graph.requests.length;
    await readMicrosoft(app, tokens, CALENDAR, first.state, later, first.events);
    expect(graph.requests[mark]?.query.startDateTime).toBeDefined();
  });

  it('refuses a time Graph answered outside UTC, and a link that leaves Graph', async () => {
    const item = {
      id: 'a',
      start: { dateTime: '2030-01-07T07:00:00.0000000', timeZone: 'Pacific Standard Time' },
    };
    expect(() => toMicrosoftEvent(item)).toThrow(CalendarReadError);
    const state = {
      syncToken: 'https://elsewhere.example.test/v1.0/steal',
      ctag: `round:${window.from.toISOString()}/2099-01-01T00:00:00.000Z`,
    };
    await expect(readMicrosoft(app, tokens, CALENDAR, state, window, [])).rejects.toMatchObject({
      reason: 'unreadable',
    });
  });
});

describe('change notifications', () => {
  const subscribe = () =>
    subscribeMicrosoft(app, tokens, {
      calendarId: CALENDAR,
      notificationUrl: `${endpoint.url}/hooks/microsoft`,
      lifecycleNotificationUrl: `${endpoint.url}/hooks/microsoft/lifecycle`,
    });

  it('subscribes once our endpoint answers the validation handshake, and not before', async () => {
    endpoint.answering = false;
    await expect(subscribe()).rejects.toMatchObject({ status: 400, code: 'ValidationError' });
    endpoint.answering = true;
    const { subscription } = await subscribe();
    const stored = graph.subscriptions.get(subscription.id);
    expect(stored).toMatchObject({
      changeType: 'created,updated,deleted',
      resource: `me/calendars/${CALENDAR}/events`,
      clientState: subscription.clientState,
    });
    expect(subscription.clientState.length).toBeGreaterThanOrEqual(40);
    expect(subscription.expiresAt.getTime()).toBeGreaterThan(Date.now() + 2.9 * 86_400_000);
    expect(answerValidation({})).toBeNull();
    expect(answerValidation({ validationToken: 'abc' })?.body).toBe('abc');
  });

  it('renews a subscription, says when Graph no longer has it, and deletes it', async () => {
    const { subscription } = await subscribe();
    const renewed = await renewMicrosoftSubscription(
      app,
      tokens,
      subscription.id,
      new Date(Date.now() + 20 * 60_000),
    );
    expect(renewed.expiresAt!.getTime()).toBeGreaterThan(subscription.expiresAt.getTime());
    await deleteMicrosoftSubscription(app, tokens, subscription.id);
    expect(graph.subscriptions.has(subscription.id)).toBe(false);
    await deleteMicrosoftSubscription(app, tokens, subscription.id);
    expect((await renewMicrosoftSubscription(app, tokens, subscription.id)).expiresAt).toBeNull();
  });

  it('accepts a notification carrying our clientState and refuses one that does not', async () => {
    const { subscription } = await subscribe();
    endpoint.received.length = 0;
    expect(await graph.notify(subscription.id, { changeType: 'deleted', eventId: 'AAMkEvent-1' })).toBe(202);
    expect(await graph.notify(subscription.id, { clientState: 'guessed' })).toBe(202);
    const [good, forged] = endpoint.received;
    expect(verifyMicrosoftNotification(good, subscription.clientState)).toEqual({
      accepted: true,
      changed: [subscription.id],
      lifecycle: [],
    });
    expect(verifyMicrosoftNotification(forged, subscription.clientState)).toEqual({ accepted: false });
    expect(verifyMicrosoftNotification({ value: [] }, subscription.clientState)).toEqual({ accepted: false });
    expect(verifyMicrosoftNotification('junk', subscription.clientState)).toEqual({ accepted: false });
    const mixed = {
      value: [...(good as { value: unknown[] }).value, ...(forged as { value: unknown[] }).value],
    };
    expect(verifyMicrosoftNotification(mixed, subscription.clientState)).toEqual({ accepted: false });
  });

  it('tells lifecycle events apart: reauthorizationRequired, missed', async () => {
    const { subscription } = await subscribe();
    endpoint.received.length = 0;
    await graph.lifecycle(subscription.id, 'reauthorizationRequired');
    await graph.lifecycle(subscription.id, 'missed');
    await graph.lifecycle(subscription.id, 'missed', 'forged');
    const [reauthorize, missed, forged] = endpoint.received;
    expect(verifyMicrosoftNotification(reauthorize, subscription.clientState)).toEqual({
      accepted: true,
      changed: [],
      lifecycle: [{ subscriptionId: subscription.id, event: 'reauthorizationRequired' }],
    });
    expect(verifyMicrosoftNotification(missed, subscription.clientState)).toMatchObject({
      lifecycle: [{ event: 'missed' }],
    });
    expect(verifyMicrosoftNotification(forged, subscription.clientState)).toEqual({ accepted: false });
  });
});

describe('bookings written back', () => {
  const booking = {
    openingId: '5a1f0c7e-0000-4000-8000-000000000001',
    start: new Date(at(12)),
    end: new Date(at(13)),
    customerName: 'Priya',
    customerPhone: '+15551234567',
    serviceName: 'Cut',
  };

  it('writes the booking with our marker, once, never reads it back as a cancellation, and deletes it', async () => {
    const first = await readMicrosoft(app, tokens, CALENDAR, fresh, window, []);
    const written = await writeMicrosoftBooking(app, tokens, CALENDAR, booking);
    const again = await writeMicrosoftBooking(app, tokens, CALENDAR, booking);
    expect(again.eventId).toBe(written.eventId);
    const stored = graph.events.get(written.eventId)!;
    expect(stored).toMatchObject({ subject: 'Cut – Priya (+15551234567)', start: at(12), end: at(13) });
    expect(stored.singleValueExtendedProperties).toEqual([
      { id: MICROSOFT_OURS_PROPERTY, value: booking.openingId },
    ]);
    expect(stored.body?.content).toContain('+15551234567');

    const withBooking = await readMicrosoft(app, tokens, CALENDAR, first.state, window, first.events);
    expect(withBooking.events).toHaveLength(1);
    expect(withBooking.events[0]).toMatchObject({ ours: true, start: booking.start, href: written.eventId });

    await deleteMicrosoftBooking(app, tokens, written.eventId);
    expect(graph.events.get(written.eventId)?.deleted).toBe(true);
    await deleteMicrosoftBooking(app, tokens, written.eventId);
    const after = await readMicrosoft(app, tokens, CALENDAR, withBooking.state, window, withBooking.events);
    expect(after.events).toEqual([]);
    const changes = detectChanges(withBooking.events, after.events, {
      now: NOW,
      horizonDays: 7,
      exclude: [],
    });
    expect(changes.cancellations).toEqual([]);
  });

  it('surfaces a refusal other than a missing event', async () => {
    await expect(writeMicrosoftBooking(app, tokens, 'AAMkNoSuchCalendar', booking)).rejects.toBeInstanceOf(
      GraphError,
    );
  });
});
