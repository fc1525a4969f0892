import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client.ts';
import { customers, openings, users } from '../db/schema.ts';
import { plivoV3Signature } from '../features/messaging/plivo-signature.ts';
import { daytimeZone } from '../test/daytime-zone.mjs';
import { type FakePlivo, startFakePlivo } from '../test/fake-plivo.ts';
import { type FakeSmtp, startFakeSmtp } from '../test/fake-smtp.ts';
import { api, type Instance, startInstance } from '../test/instance.ts';
import { type RoundRobinProxy, startRoundRobinProxy } from '../test/round-robin-proxy.ts';
import { createTestDatabase } from '../test/test-app.ts';

/**
 * Two real server processes on one PostgreSQL database, driven only through their HTTP APIs, with a local
 * Plivo-speaking server and a local SMTP server (issue 17). Nothing here is shared in memory: whatever
 * holds, holds through the database.
 */
if (!process.env.TEST_DATABASE_URL)
  throw new Error('the two-instance test needs TEST_DATABASE_URL (PostgreSQL)');

const METRICS_TOKEN = 'scale-test-metrics-token';
let database: DatabaseHandle & { url?: string };
let plivo: FakePlivo;
let smtp: FakeSmtp;
let a: Instance;
let b: Instance;
/** The compose.yaml topology without Docker: both instances behind one reverse proxy. */
let proxy: RoundRobinProxy;
const both = () => [a, b];

beforeAll(async () => {
  database = await createTestDatabase();
  plivo = await startFakePlivo();
  smtp = await startFakeSmtp();
  const env = {
    DATABASE_URL: database.url!,
    PUBLIC_URL: 'http://app.test',
    PLIVO_AUTH_ID: plivo.authId,
    PLIVO_AUTH_TOKEN: plivo.authToken,
    PLIVO_API_URL: plivo.url,
    SMTP_URL: smtp.url,
    METRICS_TOKEN,
    SHUTDOWN_TIMEOUT_SECONDS: '10',
  };
  // Both at once, as an orchestrator starts them: the migrations run under an advisory lock.
  [a, b] = await Promise.all([startInstance(env), startInstance(env)]);
  proxy = await startRoundRobinProxy([a.url, b.url]);
});

afterAll(async () => {
  await proxy?.close();
  await Promise.all([a?.stop(), b?.stop()]);
  await plivo?.close();
  await smtp?.close();
  await database?.close();
});

const waitFor = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};
const mailsTo = (email: string) => smtp.received.filter((mail) => mail.to.includes(email));
const codeIn = (raw: string) => raw.match(/\b(\d{6})\b/)?.[1];
async function metric(instance: Instance, pattern: RegExp) {
  const response = await fetch(`${instance.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const match = pattern.exec(await response.text());
  return match ? Number(match[1]) : 0;
}
const smsSent = (instance: Instance) =>
  metric(instance, /outbox_deliveries_total\{kind="sms",provider="plivo",outcome="sent"\} (\d+)/);

function plivoWebhook(instance: Instance, params: Record<string, string>) {
  const path = '/api/v1/webhooks/plivo/message';
  const nonce = randomUUID().replace(/-/g, '').slice(0, 20);
  const signature = plivoV3Signature(plivo.authToken, 'POST', `http://app.test${path}`, nonce, params);
  return fetch(`${instance.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-plivo-signature-v3-nonce': nonce,
      'x-plivo-signature-v3': signature,
    },
    body: new URLSearchParams(params).toString(),
  });
}

const stamp = Date.now().toString(36);
const owners = Array.from({ length: 6 }, (_, n) => ({
  firstName: 'Bella',
  lastName: `Owner${n}`,
  email: `scale.${stamp}.${n}@example.com`,
  password: 'secret123',
}));
let token = '';
let number = '';
let userId = '';

let alertPhones: string[] = [];
let openingId = '';

/** The alert test's body: thirty customers texted once each, at most 5/s across both instances. */
async function alertsThirtyCustomersOnce() {
  // Thirty waiting customers (a Growth-sized list; the trial cap of 25 is the waitlist API's rule).
  await database.db
    .update(users)
    .set({ subscriptionPlan: 'growth', timeZone: daytimeZone() })
    .where(eq(users.id, userId));
  alertPhones = Array.from(
    { length: 30 },
    (_, n) => `+1646${stamp.slice(-3).replace(/\D/g, '7')}${String(n).padStart(4, '0')}`,
  );
  await database.db.insert(customers).values(
    alertPhones.map((phone, n) => ({
      userId,
      name: `Customer ${n}`,
      phone,
      position: n + 1,
      consentMethod: 'verbal' as const,
    })),
  );
  const created = await api(b.url, 'POST', '/openings', {
    token,
    body: {
      startsAt: new Date(Date.now() + 3 * 3_600_000).toISOString(),
      durationMinutes: 45,
      service: 'Haircut',
      priceCents: 6500,
      mode: 'all',
    },
  });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  openingId = created.json.data.id;
  const creates = () =>
    plivo.requests.filter(
      (r) =>
        r.method === 'POST' &&
        r.path.endsWith('/Message/') &&
        r.status === 202 &&
        r.body?.src === number.slice(1),
    );
  await waitFor('30 alert texts at Plivo', () => creates().length >= 30, 40_000);
  await new Promise((resolve) => setTimeout(resolve, 1_500));

  const sent = creates();
  expect(sent).toHaveLength(30);
  expect(new Set(sent.map((r) => `+${r.body!.dst}`))).toEqual(new Set(alertPhones));
  const gaps = sent.slice(1).map((r, i) => r.at - sent[i]!.at);
  const closest = Math.min(...gaps);
  // 5/s: Plivo never sees two texts of one account closer than 200 ms (1 ms for timer rounding).
  expect(closest).toBeGreaterThanOrEqual(199);
  const [fromA, fromB] = await Promise.all([smsSent(a), smsSent(b)]);
  expect(fromA + fromB).toBe(30);
  // Both instances' workers took part, and the rate still held.
  expect(fromA).toBeGreaterThan(0);
  expect(fromB).toBeGreaterThan(0);
  console.info(`alert: 30 texts, A sent ${fromA}, B sent ${fromB}, closest gap ${closest.toFixed(1)} ms`);
}

/** The YES-race test's body: one winner, and one answer to every customer texted about the slot. */
async function oneWinnerAmongTenReplies() {
  const repliers = alertPhones.slice(0, 10);
  const before = plivo.messages.length;
  const answers = await Promise.all(
    repliers.map((phone, n) =>
      plivoWebhook(both()[n % 2]!, {
        From: phone.slice(1),
        To: number.slice(1),
        Text: 'YES',
        Type: 'sms',
        MessageUUID: randomUUID(),
      }),
    ),
  );
  expect(answers.map((r) => r.status)).toEqual(repliers.map(() => 200));
  const booked = await database.db
    .select({ phone: customers.phone })
    .from(customers)
    .where(and(eq(customers.userId, userId), eq(customers.status, 'booked')));
  expect(booked).toHaveLength(1);
  const opening = await api(a.url, 'GET', `/openings/${openingId}`, { token });
  expect(opening.json.data.status).toBe('filled');
  // Everyone texted about the slot gets exactly one text (issue 15): the winner a confirmation, every other
  // customer, replier or not, that it is taken; a late YES from someone already told gets nothing more.
  await waitFor(
    'an answer to each alerted customer',
    () => plivo.messages.length - before >= alertPhones.length,
    20_000,
  );
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const answersTo = plivo.messages.slice(before).map((m) => `+${m.dst}`);
  expect(answersTo.sort()).toEqual([...alertPhones].sort());
  expect(repliers.every((phone) => answersTo.includes(phone))).toBe(true);
}

describe('two instances on one PostgreSQL', () => {
  it('sends each email exactly once, whichever instance queued it', async () => {
    const registered = await Promise.all(
      owners.map((owner, n) => api(both()[n % 2]!.url, 'POST', '/auth/register', { body: owner })),
    );
    expect(registered.map((r) => r.status)).toEqual(owners.map(() => 201));
    await waitFor('every verification email', () => owners.every((o) => mailsTo(o.email).length > 0));
    await new Promise((resolve) => setTimeout(resolve, 2_500)); // both outboxes polled again meanwhile
    expect(owners.map((o) => mailsTo(o.email).length)).toEqual(owners.map(() => 1));
    token = registered[0]!.json.token;
    userId = registered[0]!.json.user.id;
  });

  it('shares the login throttle behind the proxy: the 11th wrong password is refused, whichever instance', async () => {
    const statuses: number[] = [];
    for (let n = 0; n < 11; n += 1) {
      const response = await api(proxy.url, 'POST', '/auth/login', {
        body: { email: owners[1]!.email, password: 'wrong-password' },
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
    // The proxy alternated: each instance counted some of the attempts.
    expect([...proxy.served.values()].every((count) => count >= 5)).toBe(true);
  });

  it('onboards across instances: verify on B with the code emailed by A, number rented once', async () => {
    const code = codeIn(mailsTo(owners[0]!.email)[0]!.raw);
    expect(code).toBeDefined();
    expect(
      (await api(b.url, 'POST', '/auth/verify-account', { token, body: { verificationCode: code } })).status,
    ).toBe(200);
    const business = await api(a.url, 'POST', '/auth/business-verification', {
      token,
      body: { businessName: 'Bella Salon', businessPhone: '(555) 123-4567' },
    });
    expect(business.status).toBe(200);
    const requested = await api(a.url, 'POST', '/phone-number/request', { token, body: {} });
    expect(requested.status).toBe(200);
    number = requested.json.data.number;
    plivo.registration.set(number.slice(1), { tendlc_registration_status: 'COMPLETED' });
    const verified = await api(b.url, 'POST', '/phone-number/verify', { token, body: {} });
    expect(verified.json.data.status).toBe('verified');
    expect(plivo.rented.size).toBe(1);
  });

  it(
    'texts a 30-customer alert once per customer, at most 5/s for the account across both instances',
    alertsThirtyCustomersOnce,
  );

  it('has one winner when ten YES replies land on different instances at once', oneWinnerAmongTenReplies);

  it('runs a scheduled wave once although both instances’ openings workers find it due', async () => {
    // Counted before the alert is opened: its first texts may reach Plivo before the answer reaches us.
    const before = plivo.messages.length;
    const created = await api(a.url, 'POST', '/openings', {
      token,
      body: {
        startsAt: new Date(Date.now() + 5 * 3_600_000).toISOString(),
        durationMinutes: 30,
        service: 'Colour',
        mode: 'waves',
        waveSize: 4,
        claimWindowMinutes: 10,
      },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const waveOpening = created.json.data.id as string;
    await waitFor('wave 1', () => plivo.messages.length - before >= 4, 20_000);
    const wave1 = plivo.messages.slice(before).map((m) => m.dst);
    // The claim window runs out now: both workers (every 15 s) see wave 2 due.
    await database.db
      .update(openings)
      .set({ nextWaveAt: sql`now() - interval '1 second'` })
      .where(eq(openings.id, waveOpening));
    await waitFor('wave 2', () => plivo.messages.length - before >= 8, 25_000);
    await new Promise((resolve) => setTimeout(resolve, 16_000)); // both workers have run since
    const texts = plivo.messages.slice(before).map((m) => m.dst);
    expect(texts).toHaveLength(8);
    expect(new Set(texts).size).toBe(8);
    expect(texts.slice(0, 4)).toEqual(wave1);
  });

  it('shuts down on SIGTERM within its deadline, finishing the requests in flight', async () => {
    const inFlight = [0, 1, 2].map((n) =>
      api(a.url, 'POST', '/auth/register', {
        body: { ...owners[0]!, email: `late.${stamp}.${n}@example.com` },
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    const started = Date.now();
    const exit = await a.stop(20_000);
    const took = Date.now() - started;
    expect(exit, a.log().slice(-4000)).toEqual({ code: 0, signal: null });
    expect(took).toBeLessThan(10_000);
    expect((await Promise.all(inFlight)).map((r) => r.status)).toEqual([201, 201, 201]);
    expect(a.log()).not.toContain('abandoning');
    // B carries on alone; the proxy skips the stopped instance.
    expect((await api(b.url, 'GET', '/health/ready')).status).toBe(200);
    const viaProxy = await Promise.all([0, 1, 2, 3].map(() => api(proxy.url, 'GET', '/auth/me', { token })));
    expect(viaProxy.map((r) => r.status)).toEqual([200, 200, 200, 200]);
  });
});
