import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitRules } from '../../lib/rate-limit.ts';
import { type FakeGoogle, startFakeGoogle } from '../../test/fake-google.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { owner } from '../waitlist/waitlist.test-helpers.ts';
import { insertConnection } from './calendar.repo.ts';
import { freePort, googleEnv } from './calendar-oauth.test-helpers.ts';
import { MAX_PUSH_ITEMS } from './calendar-push.ts';
import { sealTokens } from './oauth-apps.ts';

/**
 * Issue 38, the push endpoints as a hostile sender uses them, over real HTTP: a Graph batch of 1,000 guessed
 * subscriptions must not cost 1,000 lookups, and a valid Google push replayed 30 times must not read the
 * calendar 30 times. The Google connection is written as the OAuth callback writes it (its tokens sealed),
 * and its channel opened at the local Google as after connecting.
 */
const KEY = Buffer.alloc(32, 38);
let t: TestApp;
let google: FakeGoogle;
let pushUrl: string;
beforeAll(async () => {
  google = await startFakeGoogle();
  const port = await freePort();
  pushUrl = `http://127.0.0.1:${port}`;
  t = await createTestApp({
    startAt: new Date(),
    env: { ...googleEnv(google, pushUrl), CALENDAR_ENCRYPTION_KEY: KEY.toString('base64') },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
});
afterAll(async () => {
  await t?.close();
  await google?.close();
});

/**
 * Counts the statements sent to the database (outside transactions) whose text matches `pattern`, until
 * stop(): PGlite's client and node-postgres's pool both take each statement through `query`.
 */
function countStatements(pattern: RegExp) {
  const client = (t.database.db as unknown as { $client: { query: (...args: unknown[]) => unknown } })
    .$client;
  const own = Object.hasOwn(client, 'query');
  const original = client.query;
  let count = 0;
  client.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === 'string' ? first : ((first as { text?: string } | null)?.text ?? '');
    if (pattern.test(text)) count += 1;
    return original.apply(this, args);
  };
  return {
    count: () => count,
    stop() {
      if (own) client.query = original;
      else delete (client as { query?: unknown }).query;
    },
  };
}

const post = (kind: 'google' | 'microsoft', init: { headers?: Record<string, string>; body?: string }) =>
  fetch(`${pushUrl}/api/v1/calendar/push/${kind}`, { method: 'POST', ...init });

describe('Microsoft pushes', () => {
  const batch = (count: number, item: (n: number) => object = () => ({})) =>
    JSON.stringify({
      value: Array.from({ length: count }, (_, n) => ({
        subscriptionId: randomUUID(),
        clientState: 'guessed',
        changeType: 'updated',
        resource: 'me/events/AAA',
        ...item(n),
      })),
    });

  it(`a batch of 1,000 guessed subscriptions is refused before any lookup; one of ${MAX_PUSH_ITEMS} costs one lookup`, async () => {
    const lookups = countStatements(/calendar_connections/);
    try {
      const huge = batch(1000);
      expect(huge.length).toBeGreaterThan(70_000);
      expect(
        (await post('microsoft', { headers: { 'content-type': 'application/json' }, body: huge })).status,
      ).toBe(401);
      expect(lookups.count()).toBe(0);

      // Without our secret in each notification: refused before any lookup too.
      const unsigned = batch(10, () => ({ clientState: undefined }));
      expect(
        (await post('microsoft', { headers: { 'content-type': 'application/json' }, body: unsigned })).status,
      ).toBe(401);
      expect(lookups.count()).toBe(0);

      const full = batch(MAX_PUSH_ITEMS);
      expect(
        (await post('microsoft', { headers: { 'content-type': 'application/json' }, body: full })).status,
      ).toBe(401);
      expect(lookups.count()).toBe(1);
    } finally {
      lookups.stop();
    }
  });
});

describe('Google pushes', () => {
  const reads = () => google.requests.filter((r) => r.method === 'GET' && /\/events$/.test(r.path)).length;
  const pass = () => t.app.calendarWorker.runOnce();

  /** A business's Google calendar as the OAuth callback connects it, its push channel opened. */
  async function connectedGoogle() {
    const o = await owner(t, { plan: 'growth' });
    const accessToken = `ya29.${randomUUID()}`;
    google.accessTokens.add(accessToken);
    const now = t.clock.now();
    const row = await insertConnection(t.database.db, {
      userId: o.id,
      kind: 'google',
      name: 'Salon',
      calendarRef: 'primary',
      account: 'salon@example.com',
      secret: sealTokens(
        { accessToken, refreshToken: null, expiresAt: new Date(now.getTime() + 3_600_000) },
        KEY,
      ),
      lastSyncedAt: now,
      nextSyncAt: new Date(now.getTime() + 45_000),
      createdAt: now,
      updatedAt: now,
    });
    await t.app.services.calendar.push.openNow(row);
    const channel = [...google.channels.values()].find((c) => !c.stopped && c.address.includes(pushUrl))!;
    expect(channel).toBeDefined();
    return channel;
  }

  it('a valid push replayed 30 times reads the calendar once; replays after each read stay within the channel’s throttle', async () => {
    const channel = await connectedGoogle();
    // One push exactly as Google sent it (same message number), replayed by whoever saw it.
    const sent = {
      'x-goog-channel-id': channel.id,
      'x-goog-channel-token': channel.token!,
      'x-goog-channel-expiration': new Date(channel.expiration).toUTCString(),
      'x-goog-resource-id': channel.resourceId,
      'x-goog-resource-state': 'exists',
      'x-goog-message-number': '1',
    };
    const replay = async () => (await post('google', { headers: sent })).status;

    const before = reads();
    const writes = countStatements(/^update "calendar_connections"/);
    try {
      for (let n = 0; n < 30; n += 1) expect(await replay()).toBe(200);
      // The first made the calendar due; the others found it due and changed nothing.
      expect(writes.count()).toBe(1);
    } finally {
      writes.stop();
    }
    await pass();
    expect(reads() - before).toBe(1);

    // Replayed after each read it caused: the channel's throttle bounds the reads.
    for (let n = 0; n < 30; n += 1) {
      expect(await replay()).toBe(200);
      await pass();
    }
    const total = reads() - before;
    expect(total).toBeLessThanOrEqual(rateLimitRules.calendarPushChannel.points);
    console.info(
      `[calendar push] 60 replays of one Google push: ${total} reads (the throttle allows ${rateLimitRules.calendarPushChannel.points} a minute)`,
    );

    // Past the throttle a real change is still read, by the poll within a minute.
    t.clock.advance(46_000);
    await pass();
    expect(reads() - before).toBe(total + 1);
  });
});
