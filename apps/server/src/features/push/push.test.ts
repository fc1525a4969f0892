import { createServer, type Server } from 'node:net';
import { pushMessages } from '@waitlist/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, pushSubscriptions } from '../../db/schema.ts';
import type { OutboxRow } from '../../outbox/index.ts';
import { type FakePushService, startFakePushService } from '../../test/fake-push-service.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { pushUsers } from '../../wiring.ts';
import { addCustomer, call, owner, replyASecondLater } from '../waitlist/waitlist.test-helpers.ts';
import { createPushDelivery, createPushService, loadVapidKeys } from './push.service.ts';
import { createPushEndpoints, type ResolveHost } from './push-endpoint.ts';

let t: TestApp;
let push: FakePushService;
beforeAll(async () => {
  push = await startFakePushService();
  // The local push service is allowed by name, as LOCAL_PUSH_SERVICES does in development and e2e.
  t = await createTestApp({ env: { LOCAL_PUSH_SERVICES: push.origin } });
});
afterAll(async () => {
  await t.close();
  await push.close();
});

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
    await replyASecondLater(t, customer.phone, o.number, 'YES');
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
    await replyASecondLater(t, customer.phone, o.number, 'Can I come at 4 instead?');
    await t.app.outbox.drain();
    const got = pushesTo(device.id);
    expect(got.map((p) => (p.payload as { title: string }).title)).toEqual([pushMessages.replyTitle]);
    expect((got[0]!.payload as { body: string }).body).toBe('Priya: Can I come at 4 instead?');
  });

  it('a question after the daily automatic answer still reaches the owner’s phone (issue 27)', async () => {
    const { o, customer } = await ownerWithAlert(503);
    const { device } = await subscribeDevice(o.token);
    await replyASecondLater(t, customer.phone, o.number, 'what time?');
    await replyASecondLater(t, customer.phone, o.number, 'I need to cancel, is that ok?');
    await t.app.outbox.drain();
    const bodies = pushesTo(device.id).map((p) => (p.payload as { body: string }).body);
    expect(bodies).toEqual(['Priya: what time?', 'Priya: I need to cancel, is that ok?']);
  });

  it('410 from the push service removes the subscription; nothing is retried', async () => {
    const { o, customer } = await ownerWithAlert(503);
    const { device } = await subscribeDevice(o.token);
    push.answer(device.id, 410);
    await replyASecondLater(t, customer.phone, o.number, 'YES');
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
    await replyASecondLater(t, customer.phone, o.number, 'YES');
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
    await replyASecondLater(t, customer.phone, o.number, 'YES');
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

/** A TCP server on 127.0.0.1 that counts the connections it gets (and closes them). */
async function connectionCounter() {
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const subscriptionsOf = (userId: string) =>
  t.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));

describe('push endpoints (issue 24)', () => {
  it('refuses with 400 an endpoint that is not https on a public address, whatever its notation', async () => {
    const o = await owner(t);
    const { keys } = push.subscribe();
    const pushPort = new URL(push.origin).port;
    const refused = [
      'https://169.254.169.254/latest/meta-data/',
      'https://10.0.0.1/push/x',
      'https://172.16.5.4/push/x',
      'https://192.168.1.1/push/x',
      'https://100.64.0.1/push/x',
      'https://127.0.0.1/push/x',
      'https://2130706433/push/x', // 127.0.0.1 as one decimal number
      'https://0x7f.0.0.1/push/x',
      'https://0177.0.0.1/push/x',
      'https://127.1/push/x',
      'https://0.0.0.0/push/x',
      'https://224.0.0.1/push/x',
      'https://255.255.255.255/push/x',
      'https://[::1]/push/x',
      'https://[::ffff:127.0.0.1]/push/x',
      'https://[::ffff:a9fe:a9fe]/push/x', // 169.254.169.254, IPv4-mapped
      'https://[::127.0.0.1]/push/x',
      'https://[64:ff9b::a00:1]/push/x', // 10.0.0.1 through NAT64
      'https://[fd00::1]/push/x',
      'https://[fe80::1]/push/x',
      'https://[::]/push/x',
      'https://localhost/push/x', // a name that resolves to loopback
      // Loopback is allowed only for the configured local push service's exact origin.
      `http://localhost:${pushPort}/push/x`,
      `https://127.0.0.1:${pushPort}/push/x`,
      `http://127.0.0.2:${pushPort}/push/x`,
      'http://push.example.com/push/x', // not https
    ];
    for (const endpoint of refused) {
      const response = await call(t, o.token, 'POST', '/push/subscriptions', { endpoint, keys });
      expect(response.statusCode, endpoint).toBe(400);
      expect(response.json(), endpoint).toMatchObject({
        success: false,
        message: pushMessages.endpointRefused,
        errors: { endpoint: expect.any(String) },
      });
    }
    expect(await subscriptionsOf(o.id)).toEqual([]);
    expect((await call(t, o.token, 'GET', '/auth/me')).json().data.pushNotificationsEnabled).toBe(false);
  });

  it('never moves an endpoint to another account: 409, and the first owner keeps it and its pushes', async () => {
    const { o, customer } = await ownerWithAlert(511);
    const { device } = await subscribeDevice(o.token);
    const intruder = await owner(t);
    const stolen = await call(t, intruder.token, 'POST', '/push/subscriptions', {
      endpoint: device.endpoint,
      keys: push.subscribe().keys,
      platform: 'ios',
    });
    expect(stolen.statusCode, stolen.body).toBe(409);
    expect(stolen.json()).toEqual({ success: false, message: pushMessages.endpointTaken });
    expect(await subscriptionsOf(intruder.id)).toEqual([]);
    expect((await call(t, intruder.token, 'GET', '/auth/me')).json().data.pushNotificationsEnabled).toBe(
      false,
    );
    const [kept] = await subscriptionsOf(o.id);
    expect(kept).toMatchObject({
      endpoint: device.endpoint,
      p256dh: device.keys.p256dh,
      platform: 'android',
    });

    // The owner's own device posting again is still fine (the browser refreshes its subscription).
    const again = await call(t, o.token, 'POST', '/push/subscriptions', {
      endpoint: device.endpoint,
      keys: device.keys,
      platform: 'android',
    });
    expect(again.statusCode, again.body).toBe(200);
    await replyASecondLater(t, customer.phone, o.number, 'YES');
    await t.app.outbox.drain();
    expect(pushesTo(device.id)).toHaveLength(1);
    expect(push.rejected).toEqual([]);
  });

  it('checks the endpoint again when sending: a stored endpoint on a private address is never connected to', async () => {
    const counter = await connectionCounter();
    try {
      const { o, customer } = await ownerWithAlert(512);
      const { device } = await subscribeDevice(o.token);
      // A row stored before this check existed (or by any other path): loopback over https.
      await t.database.db
        .update(pushSubscriptions)
        .set({ endpoint: `https://127.0.0.1:${counter.port}/push/${device.id}` })
        .where(eq(pushSubscriptions.endpoint, device.endpoint));
      await replyASecondLater(t, customer.phone, o.number, 'YES');
      await t.app.outbox.drain();
      expect(counter.connections()).toBe(0);
      expect(await subscriptionsOf(o.id)).toEqual([]);
      const pending = (await t.database.db.select().from(outbox).where(eq(outbox.kind, 'push'))).filter(
        (row) => row.status === 'pending',
      );
      expect(pending).toEqual([]);
    } finally {
      await counter.close();
    }
  });

  it('a name that resolved to a public address when subscribing and to loopback when sending gets no connection', async () => {
    const counter = await connectionCounter();
    const asked: string[] = [];
    let rebound = false;
    // DNS rebinding: the attacker's name answers a public address first, then 127.0.0.1.
    const resolve: ResolveHost = async (hostname) => {
      asked.push(hostname);
      return [{ address: rebound ? '127.0.0.1' : '93.184.215.14', family: 4 }];
    };
    const endpoints = createPushEndpoints({ localServices: [], resolve });
    const keys = () => loadVapidKeys(t.database.db, t.config.push);
    const service = createPushService({ db: t.database.db, keys, users: pushUsers, endpoints });
    const delivery = createPushDelivery({
      db: t.database.db,
      keys,
      subject: 'mailto:test@example.com',
      logger: t.app.log,
      endpoints,
    });
    try {
      const o = await owner(t);
      const endpoint = `https://push.rebind.test:${counter.port}/push/x`;
      const me = (await call(t, o.token, 'GET', '/auth/me')).json().data;
      await service.subscribe({ ...me, id: o.id }, { endpoint, keys: push.subscribe().keys });
      const [stored] = await subscriptionsOf(o.id);
      expect(stored?.endpoint).toBe(endpoint);

      rebound = true;
      await delivery.deliver({
        payload: { subscriptionId: stored!.id, title: 'x', body: 'y', url: '/openings' },
      } as OutboxRow);
      expect(asked).toEqual(['push.rebind.test', 'push.rebind.test']);
      expect(counter.connections()).toBe(0);
      expect(await subscriptionsOf(o.id)).toEqual([]);
    } finally {
      await counter.close();
    }
  });
});
