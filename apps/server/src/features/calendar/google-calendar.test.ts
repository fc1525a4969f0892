import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeGoogle, startFakeGoogle } from '../../test/fake-google.ts';
import type { StoredEvent } from './calendar.repo.ts';
import { CalendarReadError } from './calendar-reader.ts';
import { detectChanges } from './changes.ts';
import {
  deleteGoogleBooking,
  exchangeCode,
  GoogleApiError,
  type GoogleApp,
  type GoogleTokens,
  googleAuthUrl,
  readGoogle,
  revoke,
  stopGoogleChannel,
  verifyGooglePush,
  watchGoogle,
  writeGoogleBooking,
} from './google-calendar.ts';

const NOW = Date.now();
const at = (hours: number) => new Date(NOW + hours * 3_600_000).toISOString();
const day = (days: number) => new Date(NOW + days * 86_400_000).toISOString().slice(0, 10);
const window = { from: new Date(NOW - 86_400_000), to: new Date(NOW + 14 * 86_400_000) };
const REDIRECT = 'https://app.example/api/v1/calendar/google/callback';

let fake: FakeGoogle;
let app: GoogleApp;

beforeAll(async () => {
  fake = await startFakeGoogle();
  app = {
    clientId: fake.clientId,
    clientSecret: fake.clientSecret,
    redirectUri: REDIRECT,
    endpoints: { api: fake.url, token: `${fake.url}/token`, revoke: `${fake.url}/revoke` },
  };
});
afterAll(() => fake.close());

beforeEach(() => {
  fake.events.clear();
  fake.requests.length = 0;
});

const connect = () => exchangeCode(app, fake.authorize(REDIRECT));
const byTitle = (events: StoredEvent[]) => Object.fromEntries(events.map((event) => [event.title, event]));

/** Five timed events (paged 2 at a time), one all-day event, one two-instance recurring event. */
function seed() {
  fake.addEvent({
    id: 'cut',
    summary: 'Cut – Priya',
    start: { dateTime: at(3) },
    end: { dateTime: at(4) },
    attendees: [
      { email: 'owner@salon.example', organizer: true, self: true, responseStatus: 'accepted' },
      { email: 'priya@example.com', responseStatus: 'needsAction' },
      { email: 'sam@example.com', responseStatus: 'declined' },
    ],
  });
  fake.addEvent({
    id: 'colour',
    summary: 'Colour – Ana',
    start: { dateTime: at(5) },
    end: { dateTime: at(7) },
  });
  fake.addEvent({
    id: 'allday',
    summary: 'Holiday',
    start: { date: day(1) },
    end: { date: day(2) },
  });
  for (const day of [1, 2]) {
    fake.addEvent({
      id: `weekly_${day}`,
      iCalUID: 'weekly@google.com',
      recurringEventId: 'weekly',
      originalStartTime: { dateTime: at(24 * day) },
      summary: 'Beard – Omar',
      start: { dateTime: at(24 * day) },
      end: { dateTime: at(24 * day + 1) },
    });
  }
  fake.addEvent({
    id: 'ours',
    summary: 'Cut – Lee (+15551234567)',
    start: { dateTime: at(10) },
    end: { dateTime: at(11) },
    extendedProperties: { private: { waitlistOpening: 'opening-1' } },
  });
  fake.addEvent({
    id: 'past',
    summary: 'Long ago',
    start: { dateTime: at(-72) },
    end: { dateTime: at(-71) },
  });
}

describe('Google consent', () => {
  it('asks for offline access, fresh consent, the narrow calendar scopes and carries the state', () => {
    const url = new URL(googleAuthUrl({ clientId: 'id-1', redirectUri: REDIRECT, state: 'st-42' }));
    expect(url.origin + url.pathname).toBe('https://accounts.google.com/o/oauth2/v2/auth');
    const q = url.searchParams;
    expect(q.get('access_type')).toBe('offline');
    expect(q.get('prompt')).toBe('consent');
    expect(q.get('client_id')).toBe('id-1');
    expect(q.get('redirect_uri')).toBe(REDIRECT);
    expect(q.get('state')).toBe('st-42');
    expect(q.get('response_type')).toBe('code');
    expect(q.get('scope')?.split(' ')).toEqual([
      'https://www.googleapis.com/auth/calendar.events.owned',
      'https://www.googleapis.com/auth/calendar.calendarlist.readonly',
    ]);
  });

  it('exchanges the code for an access and a refresh token, once; revoke ends the grant', async () => {
    const code = fake.authorize(REDIRECT);
    const tokens = await exchangeCode(app, code);
    expect(fake.accessTokens.has(tokens.accessToken)).toBe(true);
    expect(fake.refreshTokens.has(tokens.refreshToken ?? '')).toBe(true);
    expect(tokens.expiresAt?.getTime()).toBeGreaterThan(Date.now() + 3_000_000);
    await expect(exchangeCode(app, code)).rejects.toThrow();
    await revoke(app, tokens.refreshToken ?? '');
    expect(fake.revoked).toContain(tokens.refreshToken);
    await revoke(app, tokens.refreshToken ?? ''); // already revoked: fine
    const expired = { ...tokens, expiresAt: new Date(Date.now() - 1000) };
    await expect(readGoogle(app, expired, null, { syncToken: null }, window, [])).rejects.toSatisfy(
      (error) => error instanceof CalendarReadError && error.reason === 'sign-in',
    );
  });
});

describe('readGoogle', () => {
  it('reads the primary calendar whole over the window, page by page, mapped to calendar events', async () => {
    seed();
    const tokens = await connect();
    const read = await readGoogle(app, tokens, null, { syncToken: null }, window, []);
    expect(read.calendarRef).toBe(fake.calendarId);
    expect(read.name).toBe('Salon');
    expect(read.state.syncToken).toMatch(/^sync-/);
    const lists = fake.requests.filter((r) => r.path.endsWith('/events'));
    expect(lists.length).toBe(3); // 6 in the window (the all-day one too), 2 a page
    expect(lists.every((r) => r.query.singleEvents === 'true' && r.query.timeMin)).toBe(true);
    expect(read.requests).toBe(1 + 3);
    const events = byTitle(read.events);
    expect(Object.keys(events).sort()).toEqual([
      'Beard – Omar',
      'Colour – Ana',
      'Cut – Lee (+15551234567)',
      'Cut – Priya',
    ]);
    expect(read.events).toHaveLength(5);
    expect(events['Cut – Priya']).toMatchObject({
      uid: 'cut@google.com',
      recurrenceId: null,
      attendees: 1,
      ours: false,
      href: 'cut',
      status: 'confirmed',
    });
    expect(events['Cut – Lee (+15551234567)']?.ours).toBe(true);
    const beard = read.events.filter((e) => e.uid === 'weekly@google.com').map((e) => e.recurrenceId);
    expect(beard).toEqual([at(24), at(48)]);
    expect(read.tokens).toBeNull();
  });

  it('then reads only the changes: a move stays the same instance, a deletion goes, a cancellation is marked', async () => {
    seed();
    const tokens = await connect();
    const first = await readGoogle(app, tokens, fake.calendarId, { syncToken: null }, window, []);
    fake.moveEvent('colour', at(30), at(32));
    fake.deleteEvent('cut');
    fake.cancelEvent('weekly_2');
    fake.requests.length = 0;
    const second = await readGoogle(app, tokens, fake.calendarId, first.state, window, first.events);
    expect(fake.requests.map((r) => r.query.syncToken)).toEqual([
      first.state.syncToken,
      first.state.syncToken,
    ]);
    expect(fake.requests.some((r) => r.query.timeMin)).toBe(false);
    expect(second.requests).toBe(2);
    const events = byTitle(second.events);
    expect(events['Cut – Priya']).toBeUndefined();
    expect(events['Colour – Ana']).toMatchObject({ uid: 'colour@google.com', start: new Date(at(30)) });
    const cancelled = second.events.find((e) => e.href === 'weekly_2');
    expect(cancelled).toMatchObject({ status: 'cancelled', recurrenceId: at(48) });
    expect(second.events).toHaveLength(4);

    const changes = detectChanges(first.events, second.events, {
      now: new Date(NOW),
      horizonDays: 7,
      exclude: [],
    });
    expect(changes.cancellations.map((e) => (e as StoredEvent).href).sort()).toEqual(['cut', 'weekly_2']);
    expect(changes.moves.map((m) => (m.to as StoredEvent).href)).toEqual(['colour']);

    const third = await readGoogle(app, tokens, fake.calendarId, second.state, window, second.events);
    expect(third.events).toEqual(second.events);
  });

  it('reads the whole calendar again when Google forgot the sync token (410), and sees the same picture', async () => {
    seed();
    const tokens = await connect();
    const first = await readGoogle(app, tokens, fake.calendarId, { syncToken: null }, window, []);
    fake.deleteEvent('colour');
    fake.expireSyncTokens();
    fake.requests.length = 0;
    const again = await readGoogle(app, tokens, fake.calendarId, first.state, window, first.events);
    expect(fake.requests[0]).toMatchObject({ status: 410, query: { syncToken: first.state.syncToken } });
    expect(fake.requests.slice(1).every((r) => r.query.timeMin && !r.query.syncToken)).toBe(true);
    expect(again.state.syncToken).not.toBe(first.state.syncToken);
    const expected = first.events.filter((e) => e.href !== 'colour');
    expect(again.events.map((e) => e.href).sort()).toEqual(expected.map((e) => e.href).sort());
    const changes = detectChanges(first.events, again.events, {
      now: new Date(NOW),
      horizonDays: 7,
      exclude: [],
    });
    expect(changes.cancellations.map((e) => (e as StoredEvent).href)).toEqual(['colour']);
  });

  it('refreshes the access token after a 401 or when expired, and hands the new one back', async () => {
    fake.addEvent({ id: 'one', summary: 'One', start: { dateTime: at(2) }, end: { dateTime: at(3) } });
    const tokens = await connect();
    fake.expireAccessTokens();
    fake.requests.length = 0;
    const read = await readGoogle(app, tokens, fake.calendarId, { syncToken: null }, window, []);
    expect(read.events.map((e) => e.title)).toEqual(['One']);
    expect(read.tokens?.accessToken).not.toBe(tokens.accessToken);
    expect(fake.accessTokens.has(read.tokens?.accessToken ?? '')).toBe(true);
    expect(read.tokens?.refreshToken).toBe(tokens.refreshToken);
    expect(fake.requests.map((r) => r.status)).toEqual([401, 200, 200]);

    fake.requests.length = 0;
    const stale = { ...(read.tokens as GoogleTokens), expiresAt: new Date(Date.now() - 60_000) };
    const next = await readGoogle(app, stale, fake.calendarId, read.state, window, read.events);
    expect(fake.requests.map((r) => `${r.path} ${r.status}`)).toEqual([
      '/token 200',
      `/calendar/v3/calendars/${encodeURIComponent(fake.calendarId)}/events 200`,
    ]);
    expect(next.tokens?.accessToken).not.toBe(stale.accessToken);
  });

  it('fails with a plain error that carries no token when Google refuses a call', async () => {
    const tokens = await connect();
    const failure = await readGoogle(
      app,
      tokens,
      'someone-else@example.com',
      { syncToken: null },
      window,
      [],
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GoogleApiError);
    expect((failure as GoogleApiError).status).toBe(404);
    const logged = `${inspect(failure, { depth: 10 })} ${JSON.stringify(failure)}`;
    expect(logged).not.toContain(tokens.accessToken);
    expect(logged).not.toContain(tokens.refreshToken);
  });
});

describe('Google push channels', () => {
  it('opens a channel with our own token, verifies pushes, and stops it', async () => {
    const received: IncomingHttpHeaders[] = [];
    const receiver = createServer((req, res) => {
      received.push(req.headers);
      res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const address = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/push`;
    try {
      const tokens = await connect();
      const { channel } = await watchGoogle(app, tokens, {
        calendarId: fake.calendarId,
        address,
        ttlSeconds: 3600,
      });
      expect(channel.token.length).toBeGreaterThanOrEqual(40);
      expect(fake.channels.get(channel.id)).toMatchObject({ token: channel.token, address });
      expect(channel.expiration.getTime()).toBeGreaterThan(Date.now() + 3_500_000);

      await fake.notify(channel.id, 'sync');
      await fake.notify(channel.id, 'exists');
      await fake.notify(channel.id, 'exists', 'forged-token');
      expect(received.map((h) => verifyGooglePush(h, channel))).toEqual(['sync', 'changed', 'refused']);
      expect(received[1]?.['x-goog-message-number']).toBe('2');
      expect(received[1]?.['x-goog-resource-id']).toBe(channel.resourceId);
      expect(verifyGooglePush(received[1] ?? {}, { ...channel, id: 'another-channel' })).toBe('refused');
      expect(verifyGooglePush({ ...received[1], 'x-goog-channel-token': undefined }, channel)).toBe(
        'refused',
      );

      await stopGoogleChannel(app, tokens, channel);
      expect(fake.channels.get(channel.id)?.stopped).toBe(true);
      await stopGoogleChannel(app, tokens, channel); // already stopped: fine
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});

describe('Google bookings', () => {
  it('writes a claimed slot marked ours, never read back as a cancellation, and deletes it (twice is fine)', async () => {
    const tokens = await connect();
    const first = await readGoogle(app, tokens, fake.calendarId, { syncToken: null }, window, []);
    const booking = {
      openingId: 'opening-7',
      start: new Date(at(6)),
      end: new Date(at(7)),
      customerName: 'Priya',
      customerPhone: '+15551234567',
      serviceName: 'Cut',
    };
    const written = await writeGoogleBooking(app, tokens, fake.calendarId, booking);
    const stored = fake.events.get(written.eventId);
    expect(stored).toMatchObject({
      summary: 'Cut – Priya (+15551234567)',
      extendedProperties: { private: { waitlistOpening: 'opening-7' } },
      start: { dateTime: booking.start.toISOString() },
    });
    expect(stored?.description).toContain('+15551234567');
    const second = await readGoogle(app, tokens, fake.calendarId, first.state, window, first.events);
    expect(second.events).toMatchObject([{ href: written.eventId, ours: true }]);

    await deleteGoogleBooking(app, tokens, fake.calendarId, written.eventId);
    expect(fake.events.get(written.eventId)?.deleted).toBe(true);
    await deleteGoogleBooking(app, tokens, fake.calendarId, written.eventId);
    expect(fake.requests.filter((r) => r.method === 'DELETE').map((r) => r.status)).toEqual([204, 410]);
    await deleteGoogleBooking(app, tokens, fake.calendarId, 'never-existed');
    const third = await readGoogle(app, tokens, fake.calendarId, second.state, window, second.events);
    expect(third.events).toEqual([]);
    const changes = detectChanges(second.events, third.events, {
      now: new Date(NOW),
      horizonDays: 7,
      exclude: [],
    });
    expect(changes.cancellations).toEqual([]);
  });
});
