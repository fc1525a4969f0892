import { performance } from 'node:perf_hooks';
import { calendarMessages as m } from '@waitlist/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daytimeZone } from '../../test/daytime-zone.mjs';
import { type FakeGoogle, startFakeGoogle } from '../../test/fake-google.ts';
import { type FakeGraph, startFakeGraph } from '../../test/fake-graph.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { addCustomer, call, owner } from '../waitlist/waitlist.test-helpers.ts';
import { leaseConnection } from './calendar.repo.ts';
import { consent, freePort, googleEnv, graphEnv, textsSentBy } from './calendar-oauth.test-helpers.ts';
import { RENEW_BEFORE_MS } from './calendar-push.ts';

/**
 * Issue 29: Google's push channels and Microsoft Graph's subscriptions, each against its local server over
 * real HTTP (the app listens; the providers post to CALENDAR_PUSH_URL as they would). The same journey for
 * both: connecting opens a channel at our address; a push with our secret reads the calendar at once and a
 * forged one reads nothing; a missed push is caught by the 45-second poll; two instances read a pushed
 * change once and renew a channel once; disconnecting closes the channel at the provider.
 */
interface Provider {
  kind: 'google' | 'microsoft';
  start(): Promise<void>;
  env(pushUrl: string): Record<string, string>;
  stop(): Promise<void>;
  issueCode(redirectUri: string): string;
  addEvent(title: string, start: Date, end: Date): string;
  deleteEvent(id: string): void;
  /** The provider's open channels: id and where it posts. */
  channels(): { id: string; address: string }[];
  /** A change pushed as the provider does; `forged` carries a secret that is not ours. */
  push(channelId: string, forged?: boolean): Promise<number>;
  /** Requests that read events, and requests that open or renew a channel, so far. */
  reads(): number;
  renewals(): number;
  /** Makes the channel due for renewal: Google's by time, Graph's by its reauthorizationRequired event. */
  needRenewal(t: TestApp, channelId: string): Promise<void>;
  moveEvent(id: string, start: Date, end: Date): void;
  /** A daily series' occurrences (one hour each); answers their ids. */
  addSeries(title: string, starts: Date[]): string[];
  /** One occurrence cancelled, as the provider's own app does it. */
  cancelOccurrence(id: string): void;
  /** The provider forgets every sync state it gave (Google 410 fullSyncRequired, Graph 410 SyncStateNotFound). */
  expireSyncState(): void;
}

const HOUR = 3_600_000;
const inAnHour = (start: Date) => new Date(start.getTime() + HOUR);

let google: FakeGoogle;
const googleProvider: Provider = {
  kind: 'google',
  start: async () => {
    google = await startFakeGoogle();
  },
  env: (pushUrl) => googleEnv(google, pushUrl),
  stop: () => google.close(),
  issueCode: (redirectUri) => google.authorize(redirectUri),
  addEvent(title, start, end) {
    const id = `evt${Math.random().toString(36).slice(2)}`;
    google.addEvent({
      id,
      summary: title,
      start: { dateTime: start.toISOString() },
      end: { dateTime: end.toISOString() },
    });
    return id;
  },
  deleteEvent: (id) => google.deleteEvent(id),
  channels: () => [...google.channels.values()].filter((channel) => !channel.stopped),
  push: (channelId, forged) => google.notify(channelId, 'exists', forged ? 'not-our-token' : undefined),
  reads: () => google.requests.filter((r) => r.method === 'GET' && /\/events$/.test(r.path)).length,
  renewals: () => google.requests.filter((r) => r.path.endsWith('/events/watch')).length,
  async needRenewal(t, channelId) {
    const ends = google.channels.get(channelId)!.expiration;
    t.clock.set(new Date(ends - RENEW_BEFORE_MS + 60_000));
  },
  moveEvent: (id, start, end) => google.moveEvent(id, start.toISOString(), end.toISOString()),
  addSeries(title, starts) {
    const series = `series${Math.random().toString(36).slice(2)}`;
    return starts.map(
      (start) =>
        google.addEvent({
          id: `${series}_${start.toISOString().replace(/[-:.]/g, '')}`,
          iCalUID: `${series}@google.com`,
          recurringEventId: series,
          originalStartTime: { dateTime: start.toISOString() },
          summary: title,
          start: { dateTime: start.toISOString() },
          end: { dateTime: inAnHour(start).toISOString() },
        }).id,
    );
  },
  cancelOccurrence: (id) => google.cancelEvent(id),
  expireSyncState: () => google.expireSyncTokens(),
};

let graph: FakeGraph;
const graphCalendar = () => graph.calendars.find((calendar) => calendar.isDefaultCalendar)!.id;
const microsoftProvider: Provider = {
  kind: 'microsoft',
  start: async () => {
    graph = await startFakeGraph();
  },
  env: (pushUrl) => graphEnv(graph, pushUrl),
  stop: () => graph.close(),
  issueCode: (redirectUri) => graph.issueCode(redirectUri),
  addEvent: (title, start, end) =>
    graph.addEvent(graphCalendar(), { subject: title, start: start.toISOString(), end: end.toISOString() })
      .id,
  deleteEvent: (id) => graph.deleteEvent(id),
  channels: () =>
    [...graph.subscriptions.values()].map((subscription) => ({
      id: subscription.id,
      address: subscription.notificationUrl,
    })),
  push: (channelId, forged) => graph.notify(channelId, forged ? { clientState: 'not-our-state' } : {}),
  reads: () => graph.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/delta')).length,
  renewals: () => graph.requests.filter((r) => r.path.startsWith('/v1.0/subscriptions')).length,
  async needRenewal(_t, channelId) {
    expect(await graph.lifecycle(channelId, 'reauthorizationRequired')).toBe(202);
  },
  moveEvent: (id, start, end) =>
    graph.changeEvent(id, { start: start.toISOString(), end: end.toISOString() }),
  addSeries(title, starts) {
    const master = `master${Math.random().toString(36).slice(2)}`;
    return starts.map(
      (start) =>
        graph.addEvent(graphCalendar(), {
          subject: title,
          start: start.toISOString(),
          end: inAnHour(start).toISOString(),
          type: 'occurrence',
          seriesMasterId: master,
          originalStart: start.toISOString(),
          iCalUId: master,
        }).id,
    );
  },
  // Outlook takes a deleted occurrence out of the calendar view.
  cancelOccurrence: (id) => graph.deleteEvent(id),
  expireSyncState: () => graph.expireDeltaTokens(),
};

describe.each([googleProvider, microsoftProvider])('$kind push', (provider) => {
  let t: TestApp;
  let pushUrl: string;
  beforeAll(async () => {
    await provider.start();
    const port = await freePort();
    pushUrl = `http://127.0.0.1:${port}`;
    // Real time: the local Graph checks a subscription's end against its own clock.
    t = await createTestApp({ startAt: new Date(), env: provider.env(pushUrl) });
    await t.app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t?.close();
    await provider.stop();
  });

  const hoursAhead = (hours: number) => new Date(t.clock.now().getTime() + hours * 3_600_000);
  const pass = () => t.app.calendarWorker.runOnce();
  const waiting = async (token: string) => (await call(t, token, 'GET', '/calendar/proposals')).json().data;

  /** A new owner with one appointment, connected; the first pass after connecting settles. */
  async function connected(title: string, timeZone?: string) {
    const eventId = provider.addEvent(title, hoursAhead(26), hoursAhead(27));
    const o = await owner(t, { plan: 'growth', ...(timeZone ? { timeZone } : {}) });
    const before = new Set(provider.channels().map((channel) => channel.id));
    expect((await consent(t, o.token, provider.kind, provider.issueCode)).statusCode).toBe(303);
    const opened = provider.channels().filter((channel) => !before.has(channel.id));
    expect(opened).toHaveLength(1);
    await pass();
    return {
      o,
      eventId,
      channel: opened[0]!,
      connection: (await call(t, o.token, 'GET', '/calendar/connections')).json().data[0],
    };
  }

  it('connecting opens a channel at our address; a push with our secret reads at once, a forged one is refused', async () => {
    const { o, eventId, channel, connection } = await connected('Cut – Priya');
    expect(channel.address).toBe(`${pushUrl}/api/v1/calendar/push/${provider.kind}`);
    expect(connection).toMatchObject({ liveUpdates: true });

    provider.deleteEvent(eventId);
    const readsBefore = provider.reads();
    expect(await provider.push(channel.id, true)).toBe(401);
    expect(await pass()).toMatchObject({ synced: 0 });
    expect(await waiting(o.token)).toEqual([]);

    expect(await provider.push(channel.id)).toBe(provider.kind === 'google' ? 200 : 202);
    // No time has passed: the push alone made the calendar due.
    expect(await pass()).toMatchObject({ synced: 1, proposed: 1 });
    expect(provider.reads() - readsBefore).toBe(1);
    expect(await waiting(o.token)).toMatchObject([{ title: 'Cut – Priya', reason: 'deleted' }]);
  });

  it('a push that comes while the calendar is being read leaves it due: the change after the read is read next pass', async () => {
    const { o, eventId, channel, connection } = await connected('Brows – Kim');
    const now = t.clock.now();
    // A read has begun (its lease taken) when the provider pushes; the change lands after the read fetched.
    const [leased] = await leaseConnection(
      t.database.db,
      connection.id,
      now,
      new Date(now.getTime() + 60_000),
    );
    expect(await provider.push(channel.id)).toBeLessThan(300);
    await t.app.services.calendar.sync(leased!);
    provider.deleteEvent(eventId);
    expect(await pass()).toMatchObject({ synced: 1, proposed: 1 });
    expect(await waiting(o.token)).toMatchObject([{ title: 'Brows – Kim' }]);
  });

  it('a missed push is caught by the poll within a minute', async () => {
    const { o, eventId } = await connected('Colour – Mia');
    provider.deleteEvent(eventId); // and no push comes
    expect(await pass()).toMatchObject({ synced: 0 });
    t.clock.advance(46_000);
    await pass();
    expect(await waiting(o.token)).toMatchObject([{ title: 'Colour – Mia' }]);
  });

  it('a moved appointment is a move; one cancelled occurrence of a series is one proposal, for that day', async () => {
    const { o, eventId, channel } = await connected('Nails – Ivy');
    const first = hoursAhead(30);
    const days = [0, 1].map((n) => new Date(first.getTime() + n * 24 * HOUR));
    const occurrences = provider.addSeries('Colour – Lena', days);
    expect(await provider.push(channel.id)).toBeLessThan(300);
    await pass();
    provider.moveEvent(eventId, hoursAhead(50), hoursAhead(51));
    provider.cancelOccurrence(occurrences[1]!);
    expect(await provider.push(channel.id)).toBeLessThan(300);
    await pass();
    expect(await waiting(o.token)).toEqual([
      expect.objectContaining({ title: 'Colour – Lena', startsAt: days[1]!.toISOString() }),
    ]);
  });

  it('when the provider forgets the sync state, the calendar is read whole again and nothing is proposed twice', async () => {
    const { o, eventId, channel } = await connected('Cut – Omar');
    const other = provider.addEvent('Cut – Noor', hoursAhead(40), hoursAhead(41));
    expect(await provider.push(channel.id)).toBeLessThan(300);
    await pass();
    provider.deleteEvent(eventId);
    expect(await provider.push(channel.id)).toBeLessThan(300);
    await pass();
    provider.expireSyncState();
    provider.deleteEvent(other);
    expect(await provider.push(channel.id)).toBeLessThan(300);
    await pass();
    t.clock.advance(46_000);
    await pass();
    const titles = (await waiting(o.token)).map((proposal: { title: string }) => proposal.title);
    expect(titles.sort()).toEqual(['Cut – Noor', 'Cut – Omar']);
  });

  it('automatic with no wait: the first text is out right after the push, and within a minute without one', async () => {
    // Real time (the local Graph's clock): the owner is where it is mid-day now, so no text waits out the night.
    const { o, eventId, channel, connection } = await connected('Cut – Ada', daytimeZone(t.clock.now()));
    await addCustomer(t, o.token, provider.kind === 'google' ? 7301 : 7302);
    const automatic = { mode: 'auto', graceMinutes: 0 };
    expect(
      (await call(t, o.token, 'PATCH', `/calendar/connections/${connection.id}`, automatic)).statusCode,
    ).toBe(200);
    const sent = () => textsSentBy(t, o.id);
    // With the push: deletion → push → the pass it wakes → the outbox hands the text to the SMS provider.
    const started = performance.now();
    provider.deleteEvent(eventId);
    expect(await provider.push(channel.id)).toBeLessThan(300);
    await pass();
    await t.app.outbox.drain();
    const pushedMs = performance.now() - started;
    expect(await sent()).toBe(1);

    // Without it (a missed push): the read every 45 s and the pass every 15 s bound the wait.
    const later = provider.addEvent('Colour – Bo', hoursAhead(30), hoursAhead(31));
    expect(await provider.push(channel.id)).toBeLessThan(300);
    await pass();
    provider.deleteEvent(later);
    let waitedMs = 0;
    while ((await sent()) < 2 && waitedMs < 120_000) {
      t.clock.advance(15_000);
      waitedMs += 15_000;
      await pass();
      await t.app.outbox.drain();
    }
    expect(waitedMs).toBeLessThanOrEqual(60_000);
    console.info(
      `[calendar latency] ${provider.kind}: deletion → first text ${pushedMs.toFixed(0)} ms with the push; ` +
        `${waitedMs / 1000} s of schedule without it (read every 45 s, a pass every 15 s)`,
    );
  });

  it('two instances read a pushed change once, renew a channel once, and disconnecting closes it', async () => {
    const { o, eventId, channel, connection } = await connected('Beard – Sam');
    provider.deleteEvent(eventId);
    expect(await provider.push(channel.id)).toBeLessThan(300);
    const reads = provider.reads();
    const [one, two] = await Promise.all([
      t.app.services.calendar.syncDue(),
      t.app.services.calendar.syncDue(),
    ]);
    expect(one.synced + two.synced).toBe(1);
    expect(one.proposed + two.proposed).toBe(1);
    expect(provider.reads() - reads).toBe(1);
    expect(await waiting(o.token)).toMatchObject([{ title: 'Beard – Sam' }]);

    const liveBefore = provider.channels().length;
    await provider.needRenewal(t, channel.id);
    const renewals = provider.renewals();
    const push = t.app.services.calendar.push;
    const renewed = await Promise.all([push.renewDue(), push.renewDue()]);
    expect(renewed[0] + renewed[1]).toBeGreaterThanOrEqual(1);
    // Google: a new channel (the old one stopped); Graph: the subscription extended. Once per connection.
    expect(provider.renewals() - renewals).toBe(renewed[0] + renewed[1]);
    // Still one live channel per connection: Google's old ones were stopped once the new ones opened.
    const live = provider.channels();
    expect(live).toHaveLength(liveBefore);

    expect((await call(t, o.token, 'DELETE', `/calendar/connections/${connection.id}`)).statusCode).toBe(200);
    expect(provider.channels()).toHaveLength(live.length - 1);
  });

  it('a push that names no channel of ours is refused, and a sender that keeps guessing is cut off (last: it spends this address)', async () => {
    const url = `${pushUrl}/api/v1/calendar/push/${provider.kind}`;
    const guess = () =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-goog-channel-id': 'guessed',
          'x-goog-channel-token': 'guessed',
          'x-goog-resource-state': 'exists',
        },
        body: JSON.stringify({ value: [{ subscriptionId: 'guessed', clientState: 'guessed' }] }),
      });
    const first = await guess();
    expect(first.status).toBe(401);
    expect(((await first.json()) as { message: string }).message).toBe(m.pushRefused);
    let status = 401;
    for (let attempt = 0; attempt < 120 && status === 401; attempt += 1) status = (await guess()).status;
    expect(status).toBe(429);
  });
});
