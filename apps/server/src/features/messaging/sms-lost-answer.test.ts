import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../db/schema.ts';
import { claimDue } from '../../outbox/outbox.repo.ts';
import { createPlivoSmsProvider } from '../../providers/sms/plivo.ts';
import { type FakePlivo, startFakePlivo } from '../../test/fake-plivo.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { enqueueSms } from '../../test/texting.ts';
import { addCustomer, businessWithNumber, deliverTexts } from './messaging.test-helpers.ts';
import { markSendStarted } from './text-sending.repo.ts';

/**
 * Plivo's send call takes no idempotency key, so a worker that dies between Plivo's answer and our commit
 * would send the text again once its lease runs out. Before such a resend the delivery asks Plivo's Message
 * List whether the text already went out (issue 17).
 */
let fake: FakePlivo;
let t: TestApp;
beforeAll(async () => {
  fake = await startFakePlivo();
  // The app's clock starts at the real time: Plivo (the local server) stamps messages with its own clock, and
  // the delivery asks for the window around the interrupted send.
  t = await createTestApp({
    startAt: new Date(),
    env: { PLIVO_AUTH_ID: fake.authId, PLIVO_AUTH_TOKEN: fake.authToken, PLIVO_API_URL: fake.url },
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

async function queueOne() {
  const business = await businessWithNumber(t, fake);
  const customer = await addCustomer(t, business.id);
  const { messageId } = await t.database.db.transaction((tx) =>
    enqueueSms(tx, {
      userId: business.id,
      customerId: customer.id,
      to: customer.phone,
      body: 'A slot opened',
      now: t.clock.now(),
    }),
  );
  return { business, customer, messageId };
}
const messageRow = async (id: string) =>
  (await t.database.db.select().from(messages).where(eq(messages.id, id)))[0]!;
const creates = (to: string) => fake.messages.filter((m) => `+${m.dst}` === to);
const listCalls = () => fake.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/Message/'));

describe('a text whose provider answer was lost', () => {
  it('is not sent again when Plivo already has it: the retry adopts Plivo’s message id', async () => {
    const { customer, business, messageId } = await queueOne();
    // A worker claims the row, records that its call starts, reaches Plivo, and dies before committing.
    const [claimed] = await claimDue(t.database.db, t.clock.now(), 10, 60_000);
    expect(claimed).toBeDefined();
    await markSendStarted(t.database.db, messageId, t.clock.now());
    const plivo = createPlivoSmsProvider({
      authId: fake.authId,
      authToken: fake.authToken,
      apiUrl: fake.url,
      statusUrl: 'http://app.test/api/v1/webhooks/plivo/status',
    });
    const first = await plivo.send({
      from: business.number,
      to: customer.phone,
      text: 'A slot opened',
      idempotencyKey: messageId,
    });
    expect(creates(customer.phone)).toHaveLength(1);

    const listsBefore = listCalls().length;
    t.clock.advance(60_000); // the lease runs out
    await deliverTexts(t);
    expect(creates(customer.phone)).toHaveLength(1);
    expect(listCalls().length).toBe(listsBefore + 1);
    const last = listCalls().at(-1)!;
    expect(last.query).toMatchObject({
      message_direction: 'outbound',
      from_number: business.number,
      to_number: customer.phone,
    });
    expect(await messageRow(messageId)).toMatchObject({
      status: 'sent',
      providerMessageId: first.providerMessageId,
    });
  });

  it('finds it on a later page of Plivo’s list when the customer got many texts since', async () => {
    const { customer, business, messageId } = await queueOne();
    await claimDue(t.database.db, t.clock.now(), 10, 60_000);
    await markSendStarted(t.database.db, messageId, t.clock.now());
    const plivo = createPlivoSmsProvider({
      authId: fake.authId,
      authToken: fake.authToken,
      apiUrl: fake.url,
      statusUrl: 'http://app.test/api/v1/webhooks/plivo/status',
    });
    const lost = await plivo.send({
      from: business.number,
      to: customer.phone,
      text: 'A slot opened',
      idempotencyKey: messageId,
    });
    // 25 more texts to the same customer go out (and are recorded) before the lease runs out.
    await t.database.db.transaction(async (tx) => {
      for (let n = 0; n < 25; n += 1) {
        await enqueueSms(tx, {
          userId: business.id,
          customerId: customer.id,
          to: customer.phone,
          body: `Note ${n}`,
          now: t.clock.now(),
        });
      }
    });
    const listsBefore = listCalls().length;
    await deliverTexts(t);
    expect(creates(customer.phone)).toHaveLength(26);
    expect(listCalls().length - listsBefore).toBe(2); // two pages of 20
    expect((await messageRow(messageId)).providerMessageId).toBe(lost.providerMessageId);
  });

  it('is sent once when Plivo has no record of it', async () => {
    const { customer, messageId } = await queueOne();
    await claimDue(t.database.db, t.clock.now(), 10, 60_000);
    await markSendStarted(t.database.db, messageId, t.clock.now());
    t.clock.advance(60_000);
    const listsBefore = listCalls().length;
    await deliverTexts(t);
    expect(listCalls().length).toBe(listsBefore + 1);
    expect(creates(customer.phone)).toHaveLength(1);
    const row = await messageRow(messageId);
    expect(row).toMatchObject({ status: 'sent', providerMessageId: creates(customer.phone)[0]!.uuid });
  });

  it('does not ask Plivo after a refused send (5xx answered), nor on a first send', async () => {
    const listsBefore = listCalls().length;
    const { customer, messageId } = await queueOne();
    fake.failNext(1);
    await t.app.outbox.drain();
    expect((await messageRow(messageId)).sendStartedAt).toBeNull();
    await deliverTexts(t);
    expect(creates(customer.phone)).toHaveLength(1);
    expect(listCalls().length).toBe(listsBefore);
  });

  it('does not take a text Plivo holds for another of our messages as this one', async () => {
    const { customer, business } = await queueOne();
    await deliverTexts(t); // the first text to this customer goes out and is recorded as ours
    expect(creates(customer.phone)).toHaveLength(1);
    const { messageId } = await t.database.db.transaction((tx) =>
      enqueueSms(tx, {
        userId: business.id,
        customerId: customer.id,
        to: customer.phone,
        body: 'Second',
        now: t.clock.now(),
      }),
    );
    // The second text's worker dies after marking its call, before the call reached Plivo.
    await claimDue(t.database.db, t.clock.now(), 10, 60_000);
    await markSendStarted(t.database.db, messageId, t.clock.now());
    t.clock.advance(60_000);
    await deliverTexts(t);
    expect(creates(customer.phone).map((m) => m.text)).toEqual([
      expect.stringContaining('A slot opened'),
      expect.stringContaining('Second'),
    ]);
    expect((await messageRow(messageId)).providerMessageId).toBe(creates(customer.phone)[1]!.uuid);
  });
});
