import { pushMessages } from '@waitlist/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, pushSubscriptions } from '../../db/schema.ts';
import { type FakePushService, startFakePushService } from '../../test/fake-push-service.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { addCustomer, call, owner } from '../waitlist/waitlist.test-helpers.ts';

let t: TestApp;
let push: FakePushService;
beforeAll(async () => {
  t = await createTestApp();
  push = await startFakePushService();
});
afterAll(async () => {
  await t.close();
  await push.close();
});

let inbound = 0;
function reply(from: string, to: string, text: string) {
  inbound += 1;
  return t.app.services.messaging.receiveInbound({ from, to, text, providerMessageId: `push-in-${inbound}` });
}

/** An owner with one customer sent an alert for 3:00 pm New York time today. */
async function ownerWithAlert(n: number) {
  const o = await owner(t, { plan: 'growth' });
  const customer = await addCustomer(t, o.token, n, { name: 'Priya Shah' });
  const response = await call(t, o.token, 'POST', '/openings', {
    startsAt: '2026-11-23T15:00',
    durationMinutes: 45,
    service: 'Haircut',
    priceCents: 6500,
    mode: 'all',
  });
  expect(response.statusCode, response.body).toBe(201);
  await t.app.outbox.drain();
  return { o, customer };
}

async function subscribeDevice(token: string) {
  const device = push.subscribe();
  const response = await call(t, token, 'POST', '/push/subscriptions', {
    endpoint: device.endpoint,
    keys: device.keys,
    platform: 'android',
  });
  expect(response.statusCode, response.body).toBe(200);
  return { device, response };
}

const pushesTo = (id: string) => push.received.filter((p) => p.subscription === id);

describe('web push subscriptions', () => {
  it('refuses bad subscriptions with 400 and stores nothing', async () => {
    const o = await owner(t);
    const good = push.subscribe();
    const bad = [
      {},
      { endpoint: good.endpoint },
      { endpoint: 'not a url', keys: good.keys },
      { endpoint: 'http://push.example.com/x', keys: good.keys },
      { endpoint: 'ftp://127.0.0.1/x', keys: good.keys },
      { endpoint: good.endpoint, keys: { p256dh: good.keys.p256dh, auth: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAA' } },
      { endpoint: good.endpoint, keys: { p256dh: 'B'.repeat(87), auth: good.keys.auth } },
      { endpoint: good.endpoint, keys: good.keys, platform: 'windows-phone' },
    ];
    for (const body of bad) {
      const response = await call(t, o.token, 'POST', '/push/subscriptions', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().success).toBe(false);
    }
    expect(
      await t.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, o.id)),
    ).toEqual([]);
    const me = (await call(t, o.token, 'GET', '/auth/me')).json().data;
    expect(me.pushNotificationsEnabled).toBe(false);
  });

  it('turns push on and off, keeping pushNotificationsEnabled and devicePlatform on the user; several devices', async () => {
    const o = await owner(t);
    const key = (await call(t, o.token, 'GET', '/push/public-key')).json().data.publicKey;
    expect(Buffer.from(key, 'base64url')).toHaveLength(65);
    const { response } = await subscribeDevice(o.token);
    expect(response.json()).toMatchObject({
      data: { pushNotificationsEnabled: true, devicePlatform: 'android' },
      message: pushMessages.turnedOn,
    });
    await subscribeDevice(o.token);
    expect(
      await t.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, o.id)),
    ).toHaveLength(2);
    const me = (await call(t, o.token, 'GET', '/auth/me')).json().data;
    expect(me).toMatchObject({ pushNotificationsEnabled: true, devicePlatform: 'android' });

    const off = await call(t, o.token, 'DELETE', '/push/subscriptions', {});
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().data.pushNotificationsEnabled).toBe(false);
    expect(
      await t.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, o.id)),
    ).toEqual([]);
  });
});

describe('pushes to the owner', () => {
  it('claim → one push "Priya took your 3:00 pm slot", VAPID-signed with the server key, decrypted', async () => {
    const { o, customer } = await ownerWithAlert(501);
    const { device } = await subscribeDevice(o.token);
    const key = (await call(t, o.token, 'GET', '/push/public-key')).json().data.publicKey;
    await reply(customer.phone, o.number, 'YES');
    await t.app.outbox.drain();
    expect(push.rejected).toEqual([]);
    const got = pushesTo(device.id);
    expect(got).toHaveLength(1);
    expect(got[0]!.payload).toEqual({
      title: 'Priya took your 3:00 pm slot',
      body: pushMessages.claimedBody,
      url: '/openings',
    });
    expect(got[0]!.vapidPublicKey).toBe(key);
    expect(got[0]!.claims.aud).toBe(push.origin);
    expect(got[0]!.ttl).toBeDefined();
  });

  it('a free-text reply → "A customer replied"', async () => {
    const { o, customer } = await ownerWithAlert(502);
    const { device } = await subscribeDevice(o.token);
    await reply(customer.phone, o.number, 'Can I come at 4 instead?');
    await t.app.outbox.drain();
    const got = pushesTo(device.id);
    expect(got.map((p) => (p.payload as { title: string }).title)).toEqual([pushMessages.replyTitle]);
    expect((got[0]!.payload as { body: string }).body).toBe('Priya: Can I come at 4 instead?');
  });

  it('410 from the push service removes the subscription; nothing is retried', async () => {
    const { o, customer } = await ownerWithAlert(503);
    const { device } = await subscribeDevice(o.token);
    push.answer(device.id, 410);
    await reply(customer.phone, o.number, 'YES');
    await t.app.outbox.drain();
    expect(pushesTo(device.id)).toEqual([]);
    expect(
      await t.database.db
        .select()
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.endpoint, device.endpoint)),
    ).toEqual([]);
    const rows = await t.database.db.select().from(outbox).where(eq(outbox.kind, 'push'));
    expect(
      rows.filter((r) => (r.payload as { subscriptionId: string }).subscriptionId && r.status === 'pending'),
    ).toEqual([]);
  });

  it('5xx is retried with backoff and then delivered once', async () => {
    const { o, customer } = await ownerWithAlert(504);
    const { device } = await subscribeDevice(o.token);
    push.answer(device.id, 503, 500);
    await reply(customer.phone, o.number, 'YES');
    await t.app.outbox.drain();
    expect(pushesTo(device.id)).toEqual([]);
    const [row] = (await t.database.db.select().from(outbox).where(eq(outbox.kind, 'push'))).filter(
      (r) => r.status === 'pending',
    );
    expect(row).toMatchObject({ attempts: 1, lastError: 'push service answered 503' });
    t.clock.advance(5_000);
    await t.app.outbox.drain();
    expect(pushesTo(device.id)).toEqual([]);
    t.clock.advance(10_000);
    await t.app.outbox.drain();
    expect(pushesTo(device.id)).toHaveLength(1);
    const [done] = await t.database.db.select().from(outbox).where(eq(outbox.id, row!.id));
    expect(done).toMatchObject({ status: 'sent', attempts: 3 });
  });

  it('push turned off → no push on a claim', async () => {
    const { o, customer } = await ownerWithAlert(505);
    const { device } = await subscribeDevice(o.token);
    await call(t, o.token, 'DELETE', '/push/subscriptions', { endpoint: device.endpoint });
    const before = await t.database.db.select().from(outbox).where(eq(outbox.kind, 'push'));
    await reply(customer.phone, o.number, 'YES');
    await t.app.outbox.drain();
    expect(pushesTo(device.id)).toEqual([]);
    expect(await t.database.db.select().from(outbox).where(eq(outbox.kind, 'push'))).toHaveLength(
      before.length,
    );
  });

  it('an alert still unclaimed 15 minutes on → one "Nobody has claimed your slot yet"', async () => {
    const { o } = await ownerWithAlert(506);
    const { device } = await subscribeDevice(o.token);
    t.clock.advance(14 * 60_000);
    await t.app.openingsWorker.runOnce();
    await t.app.outbox.drain();
    expect(pushesTo(device.id)).toEqual([]);
    t.clock.advance(60_000);
    await t.app.openingsWorker.runOnce();
    await t.app.outbox.drain();
    expect(pushesTo(device.id).map((p) => p.payload)).toEqual([
      { title: pushMessages.unclaimedTitle, body: pushMessages.unclaimedBody('3:00 pm'), url: '/openings' },
    ]);
    t.clock.advance(60 * 60_000);
    await t.app.openingsWorker.runOnce();
    await t.app.outbox.drain();
    expect(pushesTo(device.id)).toHaveLength(1);
  });
});
