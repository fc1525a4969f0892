import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messages, outbox } from '../../db/schema.ts';
import {
  addCustomer,
  businessWithNumber,
  deliverTexts,
  textsTo,
} from '../../features/messaging/messaging.test-helpers.ts';
import { type FakePlivo, startFakePlivo } from '../../test/fake-plivo.ts';
import { burst, statusCounts } from '../../test/race.ts';
import { auth, createTestApp, onboardedUser, type TestApp } from '../../test/test-app.ts';
import { enqueueSms } from '../../test/texting.ts';
import { createPlivoSmsProvider, numberStateFrom, PLIVO_APP_NAME } from './plivo.ts';

let t: TestApp;
let fake: FakePlivo;
beforeAll(async () => {
  fake = await startFakePlivo();
  t = await createTestApp({
    env: { PLIVO_AUTH_ID: fake.authId, PLIVO_AUTH_TOKEN: fake.authToken, PLIVO_API_URL: fake.url },
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.failNext(0);
});

const basic = () => `Basic ${Buffer.from(`${fake.authId}:${fake.authToken}`).toString('base64')}`;
const accountPath = () => `/v1/Account/${fake.authId}`;

describe('Plivo contract: the dedicated number', () => {
  it('searches a US number in the area code, makes the application once, and rents the number to it', async () => {
    const user = await onboardedUser(t);
    const requested = await t.app.inject({
      method: 'POST',
      url: '/api/v1/phone-number/request',
      headers: auth(user.token),
      payload: { areaCode: '415' },
    });
    expect(requested.statusCode).toBe(200);
    expect(requested.json().data).toEqual({ number: '+14155550100', status: 'pending', error: null });

    const calls = fake.requests.map((r) => `${r.method} ${r.path}`);
    expect(calls).toEqual([
      `GET ${accountPath()}/PhoneNumber/`,
      `GET ${accountPath()}/Application/`,
      `POST ${accountPath()}/Application/`,
      `POST ${accountPath()}/PhoneNumber/14155550100/`,
    ]);
    for (const request of fake.requests) {
      expect(request.headers.authorization).toBe(basic());
      if (request.method === 'POST') expect(request.headers['content-type']).toBe('application/json');
    }
    expect(fake.requests[0]!.query).toMatchObject({ country_iso: 'US', pattern: '415', services: 'sms' });
    expect(fake.requests[2]!.body).toEqual({
      app_name: PLIVO_APP_NAME,
      message_url: 'http://app.test/api/v1/webhooks/plivo/message',
      message_method: 'POST',
    });
    const [app] = [...fake.applications.values()];
    expect(fake.requests[3]!.body).toEqual({ app_id: app!.app_id });
    expect(fake.rented.get('14155550100')).toEqual({ appId: app!.app_id });

    // A second business reuses the application.
    fake.requests.length = 0;
    const other = await onboardedUser(t);
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/phone-number/request',
      headers: auth(other.token),
      payload: {},
    });
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/Application/'))).toEqual([]);
    expect(fake.applications.size).toBe(1);
  });

  it('verification follows the number registration: pending, then verified; or failed with the reason', async () => {
    const user = await onboardedUser(t);
    const requested = await t.app.inject({
      method: 'POST',
      url: '/api/v1/phone-number/request',
      headers: auth(user.token),
      payload: {},
    });
    const number = requested.json().data.number as string;
    const verify = () =>
      t.app.inject({ method: 'POST', url: '/api/v1/phone-number/verify', headers: auth(user.token) });

    const pending = await verify();
    expect(pending.json()).toMatchObject({ data: { number, status: 'pending', error: null } });
    expect(fake.requests.at(-1)).toMatchObject({
      method: 'GET',
      path: `${accountPath()}/Number/${number.slice(1)}/`,
    });

    fake.registration.set(number.slice(1), { tendlc_registration_status: 'REJECTED' });
    const failed = await verify();
    expect(failed.json().data).toEqual({
      number,
      status: 'failed',
      error: 'US business texting registration (10DLC) was rejected.',
    });
    const state = await t.app.inject({
      method: 'GET',
      url: '/api/v1/phone-number',
      headers: auth(user.token),
    });
    expect(state.json().data.error).toMatch(/10DLC/);

    // A failed number may be replaced by a new request.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/v1/phone-number/request',
      headers: auth(user.token),
      payload: {},
    });
    expect(again.json().data).toMatchObject({ status: 'pending', error: null });
    fake.registration.set(again.json().data.number.slice(1), { tendlc_registration_status: 'COMPLETED' });
    expect((await verify()).json().data.status).toBe('verified');
  });

  it('says so when no number is available, and answers 502 when Plivo is down', async () => {
    const user = await onboardedUser(t);
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/v1/phone-number/request',
      headers: auth(user.token),
      payload: { areaCode: '000' },
    });
    // 000 is not a valid area code: refused before Plivo is asked.
    expect(none.statusCode).toBe(400);
    fake.failNext(1);
    const down = await t.app.inject({
      method: 'POST',
      url: '/api/v1/phone-number/request',
      headers: auth(user.token),
      payload: {},
    });
    expect(down.statusCode).toBe(502);
    expect(down.json().message).toMatch(/could not be reached/);
    // The failed request released its claim: the owner may ask again.
    const retry = await t.app.inject({
      method: 'POST',
      url: '/api/v1/phone-number/request',
      headers: auth(user.token),
      payload: {},
    });
    expect(retry.statusCode).toBe(200);
  });

  it('rents one number for a burst of parallel requests (issue 24), the others answer 409', async () => {
    const user = await onboardedUser(t);
    const rentedBefore = fake.rented.size;
    const answers = await burst(t.app, 6, () => ({
      method: 'POST',
      url: '/api/v1/phone-number/request',
      headers: auth(user.token),
      payload: {},
    }));
    expect(statusCounts(answers)).toEqual({ 200: 1, 409: 5 });
    expect(fake.rented.size).toBe(rentedBefore + 1);
    const kept = answers.find((answer) => answer.statusCode === 200)!.json().data.number;
    const state = await t.app.inject({ url: '/api/v1/phone-number', headers: auth(user.token) });
    expect(state.json().data).toMatchObject({ number: kept, status: 'pending' });
  });

  it('maps Plivo number details to the number state', () => {
    expect(numberStateFrom({ sms_enabled: true, tendlc_registration_status: 'COMPLETED' })).toEqual({
      status: 'verified',
    });
    expect(numberStateFrom({ sms_enabled: true, tendlc_registration_status: 'IN_PROGRESS' })).toEqual({
      status: 'pending',
    });
    expect(numberStateFrom({ sms_enabled: false })).toMatchObject({ status: 'failed' });
    expect(numberStateFrom({ number_type: 'tollfree', toll_free_sms_verification: 'verified' })).toEqual({
      status: 'verified',
    });
  });
});

describe('Plivo contract: sending texts', () => {
  it('posts src, dst, text and the status callback URL with basic auth, and stores the message_uuid', async () => {
    const business = await businessWithNumber(t, fake);
    const customer = await addCustomer(t, business.id);
    fake.requests.length = 0;
    const { messageId } = await t.database.db.transaction((tx) =>
      enqueueSms(tx, {
        userId: business.id,
        customerId: customer.id,
        to: customer.phone,
        body: 'Hello',
        now: t.clock.now(),
      }),
    );
    await deliverTexts(t);
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: `${accountPath()}/Message/`, status: 202 });
    expect(request!.headers.authorization).toBe(basic());
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.body).toEqual({
      src: business.number.slice(1),
      dst: customer.phone.slice(1),
      text: 'Hello\nReply STOP to opt out',
      url: `http://app.test/api/v1/webhooks/plivo/status?messageId=${messageId}`,
      method: 'POST',
    });
    const [message] = await textsTo(t, customer.phone);
    expect(message).toMatchObject({
      status: 'sent',
      providerMessageId: fake.messages.at(-1)!.uuid,
      sentAt: t.clock.now(),
    });
  });

  it('a 5xx outage that recovers: every text is delivered exactly once', async () => {
    const business = await businessWithNumber(t, fake);
    const customers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => addCustomer(t, business.id, { name: `Customer ${i}` })),
    );
    fake.requests.length = 0;
    const sentBefore = fake.messages.length;
    await t.database.db.transaction(async (tx) => {
      for (const customer of customers) {
        await enqueueSms(tx, {
          userId: business.id,
          customerId: customer.id,
          to: customer.phone,
          body: 'A slot opened',
          now: t.clock.now(),
        });
      }
    });
    fake.failNext(5);
    const clockMoves = await deliverTexts(t);
    expect(clockMoves).toBeGreaterThan(0);
    expect(fake.requests.filter((r) => r.status === 500)).toHaveLength(5);
    const delivered = fake.messages.slice(sentBefore);
    expect(delivered.map((m) => m.dst).sort()).toEqual(customers.map((c) => c.phone.slice(1)).sort());
    for (const customer of customers) {
      const texts = await textsTo(t, customer.phone);
      expect(texts).toHaveLength(1);
      expect(texts[0]).toMatchObject({ status: 'sent', error: null });
      expect(delivered.filter((m) => m.uuid === texts[0]!.providerMessageId)).toHaveLength(1);
    }
    // The outbox rows are done, and one carried the outage's error until it went through.
    const rows = await t.database.db.select().from(outbox).where(eq(outbox.kind, 'sms'));
    expect(rows.every((row) => row.status === 'sent')).toBe(true);
    expect(rows.some((row) => row.attempts > 1)).toBe(true);
  });

  it('a message already sent is never sent again, even if its outbox row comes back', async () => {
    const business = await businessWithNumber(t, fake);
    const customer = await addCustomer(t, business.id);
    const { messageId } = await t.database.db.transaction((tx) =>
      enqueueSms(tx, {
        userId: business.id,
        customerId: customer.id,
        to: customer.phone,
        body: 'Once',
        now: t.clock.now(),
      }),
    );
    await deliverTexts(t);
    const before = fake.messages.length;
    // Simulates a worker that died after sending but before marking its outbox row: the lease runs out.
    await t.database.db
      .update(outbox)
      .set({ status: 'pending', nextAttemptAt: t.clock.now() })
      .where(eq(outbox.kind, 'sms'));
    await deliverTexts(t);
    expect(fake.messages.length).toBe(before);
    const [message] = await t.database.db.select().from(messages).where(eq(messages.id, messageId));
    expect(message!.status).toBe('sent');
  });

  it('a refused destination (400) fails the message at once, without retries', async () => {
    const provider = createPlivoSmsProvider({
      authId: fake.authId,
      authToken: fake.authToken,
      apiUrl: fake.url,
      statusUrl: 'http://app.test/s',
    });
    await expect(
      provider.send({ from: '+14155550100', to: 'not-a-number', text: 'x', idempotencyKey: 'k' }),
    ).rejects.toMatchObject({ permanent: true, statusCode: 400 });
    fake.failNext(1);
    await expect(
      provider.send({ from: '+14155550100', to: '+14155550111', text: 'x', idempotencyKey: 'k' }),
    ).rejects.toMatchObject({ permanent: false, statusCode: 500 });
    const wrongToken = createPlivoSmsProvider({
      authId: fake.authId,
      authToken: 'wrong',
      apiUrl: fake.url,
      statusUrl: 'http://app.test/s',
    });
    await expect(wrongToken.searchNumber()).rejects.toMatchObject({ statusCode: 401 });
  });
});
