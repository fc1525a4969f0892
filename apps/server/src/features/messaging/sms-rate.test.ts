import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakePlivo, startFakePlivo } from '../../test/fake-plivo.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { enqueueSms } from '../../test/texting.ts';
import { addCustomer, businessWithNumber, textsTo } from './messaging.test-helpers.ts';

let fake: FakePlivo;
beforeAll(async () => {
  fake = await startFakePlivo();
});
afterAll(() => fake.close());

async function appWithRate(rate?: string) {
  return createTestApp({
    env: {
      PLIVO_AUTH_ID: fake.authId,
      PLIVO_AUTH_TOKEN: fake.authToken,
      PLIVO_API_URL: fake.url,
      ...(rate ? { SMS_SEND_RATE: rate } : {}),
    },
  });
}

async function queueAlert(t: TestApp, count: number) {
  const business = await businessWithNumber(t, fake);
  const customers: Awaited<ReturnType<typeof addCustomer>>[] = [];
  for (let i = 0; i < count; i += 1)
    customers.push(await addCustomer(t, business.id, { name: `Customer ${i}` }));
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
  return { business, customers };
}

describe('per-account send rate', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await appWithRate();
  });
  afterAll(() => t.close());

  it('at the default 5/s, one account’s texts reach Plivo at least 200 ms apart, in queue order', async () => {
    expect(t.config.sms.sendRate).toBe(5);
    const { business, customers } = await queueAlert(t, 6);
    const providerCalls = () => fake.messages.filter((m) => m.src === business.number.slice(1)).length;

    // The manual clock stands still: only one text may go now, however often the worker runs.
    await t.app.outbox.drain();
    await t.app.outbox.drain();
    expect(providerCalls()).toBe(1);
    t.clock.advance(199);
    await t.app.outbox.drain();
    expect(providerCalls()).toBe(1);
    for (let step = 0; step < 20 && providerCalls() < 6; step += 1) {
      t.clock.advance(1);
      await t.app.outbox.drain();
      t.clock.advance(199);
      await t.app.outbox.drain();
    }
    expect(providerCalls()).toBe(6);

    const sentAt: number[] = [];
    for (const customer of customers) {
      const [text] = await textsTo(t, customer.phone);
      expect(text!.status).toBe('sent');
      sentAt.push(text!.sentAt!.getTime());
    }
    // Waitlist (queue) order is kept, and each gap is at least 200 ms.
    for (let i = 1; i < sentAt.length; i += 1)
      expect(sentAt[i]! - sentAt[i - 1]!).toBeGreaterThanOrEqual(200);
    expect(sentAt.at(-1)! - sentAt[0]!).toBeLessThan(1200);
  });

  it('is per account: two businesses each send at once', async () => {
    const first = await queueAlert(t, 1);
    const second = await queueAlert(t, 1);
    t.clock.advance(1000);
    await t.app.outbox.drain();
    expect((await textsTo(t, first.customers[0]!.phone))[0]!.status).toBe('sent');
    expect((await textsTo(t, second.customers[0]!.phone))[0]!.status).toBe('sent');
  });
});

describe('SMS_SEND_RATE', () => {
  it('raised to 1000/s, texts go 1 ms apart', async () => {
    const t = await appWithRate('1000');
    try {
      const { customers } = await queueAlert(t, 5);
      for (let step = 0; step < 5; step += 1) {
        await t.app.outbox.drain();
        t.clock.advance(1);
      }
      const sentAt: number[] = [];
      for (const customer of customers) sentAt.push((await textsTo(t, customer.phone))[0]!.sentAt!.getTime());
      expect(sentAt.every(Number.isFinite)).toBe(true);
      for (let i = 1; i < sentAt.length; i += 1) expect(sentAt[i]! - sentAt[i - 1]!).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('refuses a rate that is not a positive number, naming the variable', async () => {
    const { loadConfig } = await import('../../config.ts');
    expect(() => loadConfig({ SMS_SEND_RATE: '0' })).toThrow(/SMS_SEND_RATE/);
    expect(() => loadConfig({ SMS_SEND_RATE: 'fast' })).toThrow(/SMS_SEND_RATE/);
    expect(() => loadConfig({ PLIVO_AUTH_ID: 'MA123' })).toThrow(/PLIVO_AUTH_TOKEN/);
    expect(loadConfig({}).sms).toEqual({ provider: 'local', sendRate: 5 });
  });
});
