import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { messages, usedNonces } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { type FakePlivo, startFakePlivo } from '../../test/fake-plivo.ts';
import { burst } from '../../test/race.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { enqueueSms } from '../../test/texting.ts';
import {
  addCustomer,
  businessWithNumber,
  customerRow,
  deliverTexts,
  signedPlivoPost,
  textsTo,
} from './messaging.test-helpers.ts';
import { plivoV3Signature, verifyPlivoV3Signature } from './plivo-signature.ts';
import { PLIVO_NONCE_SCOPE, PLIVO_NONCE_WINDOW_MS } from './plivo-webhooks.routes.ts';

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

const MESSAGE = '/api/v1/webhooks/plivo/message';
const STATUS = '/api/v1/webhooks/plivo/status';
let uuid = 0;
const nextUuid = () => {
  uuid += 1;
  return `00000000-0000-4000-8000-${String(uuid).padStart(12, '0')}`;
};
const inbound = (from: string, to: string, text: string, messageUuid = nextUuid()) => ({
  From: from.slice(1),
  To: to.slice(1),
  Text: text,
  Type: 'sms',
  MessageUUID: messageUuid,
});

describe('Plivo webhooks', () => {
  it('refuses a request with no signature, a wrong one, or one signed with another token (403)', async () => {
    const business = await businessWithNumber(t, fake);
    const customer = await addCustomer(t, business.id);
    const params = inbound(customer.phone, business.number, 'STOP');
    const missing = await signedPlivoPost(t, MESSAGE, params, fake.authToken, { signature: null });
    expect(missing.statusCode).toBe(403);
    expect(missing.json()).toEqual({ success: false, message: 'Missing Plivo signature.' });
    const wrong = await signedPlivoPost(t, MESSAGE, params, fake.authToken, {
      signature: 'bm90IGEgc2lnbmF0dXJl',
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().message).toBe('Invalid Plivo signature.');
    const otherToken = await signedPlivoPost(t, MESSAGE, params, 'someone-elses-token');
    expect(otherToken.statusCode).toBe(403);
    const status = await signedPlivoPost(t, STATUS, { MessageUUID: 'x', Status: 'delivered' }, 'nope');
    expect(status.statusCode).toBe(403);
    // Nothing was applied.
    expect((await customerRow(t, customer.id)).optedOut).toBe(false);
    expect(
      await t.database.db.select().from(messages).where(eq(messages.fromNumber, customer.phone)),
    ).toEqual([]);
  });

  it('applies a signed inbound text once, however often it is replayed', async () => {
    const business = await businessWithNumber(t, fake);
    const customer = await addCustomer(t, business.id);
    const params = inbound(customer.phone, business.number, 'stop');
    const first = await signedPlivoPost(t, MESSAGE, params, fake.authToken);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ success: true, duplicate: false });
    for (let replay = 0; replay < 3; replay += 1) {
      const again = await signedPlivoPost(t, MESSAGE, params, fake.authToken);
      expect(again.json()).toEqual({ success: true, duplicate: true });
    }
    const stored = await t.database.db.select().from(messages).where(eq(messages.fromNumber, customer.phone));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ providerMessageId: params.MessageUUID, toNumber: business.number });
    expect((await customerRow(t, customer.id)).optedOut).toBe(true);

    // One confirmation, sent through Plivo.
    await deliverTexts(t);
    const confirmations = fake.messages.filter((m) => m.dst === customer.phone.slice(1));
    expect(confirmations).toHaveLength(1);
    expect(confirmations[0]!.text).toMatch(/unsubscribed/);
  });

  it('STOP over the webhook: no more texts until START; HELP answers', async () => {
    const business = await businessWithNumber(t, fake);
    const customer = await addCustomer(t, business.id);
    const text = (body: string) =>
      t.database.db.transaction((tx) =>
        enqueueSms(tx, {
          userId: business.id,
          customerId: customer.id,
          to: customer.phone,
          body,
          now: t.clock.now(),
        }),
      );
    await signedPlivoPost(t, MESSAGE, inbound(customer.phone, business.number, 'HELP'), fake.authToken);
    await signedPlivoPost(t, MESSAGE, inbound(customer.phone, business.number, 'END'), fake.authToken);
    await expect(text('A slot opened')).rejects.toMatchObject({ statusCode: 403, reason: 'opted_out' });
    t.clock.advance(1000);
    await signedPlivoPost(t, MESSAGE, inbound(customer.phone, business.number, 'UNSTOP'), fake.authToken);
    t.clock.advance(1000);
    await text('A slot opened');
    await deliverTexts(t);
    const received = fake.messages.filter((m) => m.dst === customer.phone.slice(1)).map((m) => m.text);
    expect(received).toEqual([
      expect.stringMatching(/^Bella Salon: .*Reply STOP to opt out/),
      expect.stringMatching(/unsubscribed/),
      expect.stringMatching(/subscribed to texts again/),
      // Keyword answers are not the business's first text: that one still carries the opt-out line.
      'A slot opened\nReply STOP to opt out',
    ]);
  });

  it('delivery reports update the status once, never backwards, and find the message by its id in the URL', async () => {
    const business = await businessWithNumber(t, fake);
    const customer = await addCustomer(t, business.id);
    const { messageId } = await t.database.db.transaction((tx) =>
      enqueueSms(tx, {
        userId: business.id,
        customerId: customer.id,
        to: customer.phone,
        body: 'Hi',
        now: t.clock.now(),
      }),
    );
    await deliverTexts(t);
    const sent = fake.messages.find((m) => m.dst === customer.phone.slice(1))!;
    expect(sent.url).toBe(`http://app.test/api/v1/webhooks/plivo/status?messageId=${messageId}`);
    const [before] = await textsTo(t, customer.phone);
    expect(before).toMatchObject({ status: 'sent', providerMessageId: sent.uuid });

    const statusPath = new URL(sent.url!).pathname + new URL(sent.url!).search;
    const report = (status: string, extra: Record<string, string> = {}) =>
      signedPlivoPost(
        t,
        statusPath,
        { MessageUUID: sent.uuid, Status: status, To: sent.dst, From: sent.src, ...extra },
        fake.authToken,
      );

    t.clock.advance(5000);
    expect((await report('delivered')).json()).toEqual({ success: true, applied: true });
    const deliveredAt = t.clock.now();
    t.clock.advance(5000);
    expect((await report('delivered')).json()).toEqual({ success: true, applied: false });
    expect((await report('sent')).json()).toEqual({ success: true, applied: false });
    const [after] = await textsTo(t, customer.phone);
    expect(after).toMatchObject({ status: 'delivered', deliveredAt });

    // A failed text shows the carrier's error code.
    const { messageId: second } = await t.database.db.transaction((tx) =>
      enqueueSms(tx, {
        userId: business.id,
        customerId: customer.id,
        to: customer.phone,
        body: 'Hi again',
        now: t.clock.now(),
      }),
    );
    await deliverTexts(t);
    const secondSent = fake.messages.find((m) => m.url?.endsWith(second))!;
    await signedPlivoPost(
      t,
      `${STATUS}?messageId=${second}`,
      { MessageUUID: secondSent.uuid, Status: 'undelivered', ErrorCode: '30' },
      fake.authToken,
    );
    const [failed] = await t.database.db.select().from(messages).where(eq(messages.id, second));
    expect(failed).toMatchObject({ status: 'undelivered', error: 'Carrier error 30' });
  });

  it('has no /dev/phone while Plivo is configured', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/dev/phone' })).statusCode).toBe(404);
    const reply = await t.app.inject({ method: 'POST', url: '/api/v1/dev/phone/reply', payload: {} });
    expect(reply.statusCode).toBe(404);
  });

  describe('signature nonces (issue 24)', () => {
    /** A text as Plivo posts it (with the PowerpackUUID field, which sorts between MessageUUID and Text). */
    const captured = (from: string, to: string, text: string) => ({
      ...inbound(from, to, text),
      PowerpackUUID: '6d8a4b21-0c3f-4d2e-9a57-3f1e2b7c9d10',
    });
    const storedFrom = (phone: string) =>
      t.database.db.select().from(messages).where(eq(messages.fromNumber, phone));

    it('refuses a captured request re-split so MessageUUID absorbs the next field: it verifies, but its nonce was used', async () => {
      const business = await businessWithNumber(t, fake);
      const customer = await addCustomer(t, business.id);
      const original = captured(customer.phone, business.number, 'Can I come at 4 instead?');
      const nonce = '30815469237051842177';
      const signature = plivoV3Signature(
        fake.authToken,
        'POST',
        `http://app.test${MESSAGE}`,
        nonce,
        original,
      );
      const first = await signedPlivoPost(t, MESSAGE, original, fake.authToken, { nonce, signature });
      expect(first.json()).toEqual({ success: true, duplicate: false });

      // V3 joins names and values without separators: "MessageUUID<uuid>PowerpackUUID<uuid>Text…" reads the
      // same with MessageUUID = "<uuid>PowerpackUUID<uuid>", a message id never seen before.
      const { PowerpackUUID, ...rest } = original;
      const resplit = { ...rest, MessageUUID: `${original.MessageUUID}PowerpackUUID${PowerpackUUID}` };
      expect(
        verifyPlivoV3Signature({
          authToken: fake.authToken,
          method: 'POST',
          url: `http://app.test${MESSAGE}`,
          nonce,
          signature,
          params: resplit,
        }),
      ).toBe(true);
      const replayed = await signedPlivoPost(t, MESSAGE, resplit, fake.authToken, { nonce, signature });
      // 200, as for any replay, so Plivo (or whoever sent it) has no reason to send it again; nothing applied.
      expect(replayed.statusCode).toBe(200);
      expect(replayed.json()).toEqual({ success: true, duplicate: true });
      expect(await storedFrom(customer.phone)).toHaveLength(1);

      // The nonce is kept for its window; past it, the re-split is still refused: its MessageUUID is no UUID.
      const [row] = await t.database.db
        .select()
        .from(usedNonces)
        .where(and(eq(usedNonces.scope, PLIVO_NONCE_SCOPE), eq(usedNonces.nonce, nonce)));
      expect(row!.expiresAt.getTime() - t.clock.now().getTime()).toBeGreaterThanOrEqual(
        PLIVO_NONCE_WINDOW_MS - 60_000,
      );
      t.clock.advance(PLIVO_NONCE_WINDOW_MS + 1000);
      const late = await signedPlivoPost(t, MESSAGE, resplit, fake.authToken, { nonce, signature });
      expect(late.statusCode).toBe(400);
      const lateExact = await signedPlivoPost(t, MESSAGE, original, fake.authToken, { nonce, signature });
      expect(lateExact.json()).toEqual({ success: true, duplicate: true });
      expect(await storedFrom(customer.phone)).toHaveLength(1);
    });

    it('the same signed request twice, one after the other or at once, is applied once', async () => {
      const business = await businessWithNumber(t, fake);
      const customer = await addCustomer(t, business.id);
      const receive = vi.spyOn(t.app.services.conversation, 'receiveInbound');
      try {
        const params = inbound(customer.phone, business.number, 'Running 5 minutes late');
        const nonce = '71022853140966307519';
        const first = await signedPlivoPost(t, MESSAGE, params, fake.authToken, { nonce });
        expect(first.json()).toEqual({ success: true, duplicate: false });
        const second = await signedPlivoPost(t, MESSAGE, params, fake.authToken, { nonce });
        expect(second.statusCode).toBe(200);
        expect(second.json()).toEqual({ success: true, duplicate: true });
        // Refused at the nonce, which the statement storing the text records (issue 40: one round trip): the
        // second stored nothing.
        await expect(receive.mock.results[1]!.value).resolves.toEqual({ outcome: 'duplicate' });
        expect(await storedFrom(customer.phone)).toHaveLength(1);

        // A burst of one captured request (a new nonce): one is applied, every other copy is refused.
        const again = inbound(customer.phone, business.number, 'Actually 10 minutes');
        const burstNonce = '55201938475610293847';
        const signature = plivoV3Signature(
          fake.authToken,
          'POST',
          `http://app.test${MESSAGE}`,
          burstNonce,
          again,
        );
        const answers = await burst(t.app, 8, () => ({
          method: 'POST',
          url: MESSAGE,
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            'x-plivo-signature-v3-nonce': burstNonce,
            'x-plivo-signature-v3': signature,
          },
          payload: new URLSearchParams(again).toString(),
        }));
        expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
        expect(answers.filter((a) => a.json().duplicate === false)).toHaveLength(1);
        const outcomes = await Promise.all(receive.mock.results.slice(2).map((result) => result.value));
        expect(outcomes.filter((outcome) => outcome.outcome !== 'duplicate')).toHaveLength(1);
        expect(await storedFrom(customer.phone)).toHaveLength(2);

        // Delivery reports too: a reused nonce is not applied.
        const status = { MessageUUID: nextUuid(), Status: 'delivered' };
        const report = await signedPlivoPost(t, STATUS, status, fake.authToken, { nonce: burstNonce });
        expect(report.json()).toEqual({ success: true, applied: false });
      } finally {
        receive.mockRestore();
      }
    });

    it('a request that failed on our side (5xx) is applied when Plivo retries it with the same nonce', async () => {
      const business = await businessWithNumber(t, fake);
      const customer = await addCustomer(t, business.id);
      const receive = vi
        .spyOn(t.app.services.conversation, 'receiveInbound')
        .mockRejectedValueOnce(new AppError(503, 'The database is restarting.'));
      try {
        const params = inbound(customer.phone, business.number, 'Can I come at 4?');
        const nonce = '99887766554433221100';
        const failed = await signedPlivoPost(t, MESSAGE, params, fake.authToken, { nonce });
        expect(failed.statusCode).toBe(503);
        const retried = await signedPlivoPost(t, MESSAGE, params, fake.authToken, { nonce });
        expect(retried.json()).toEqual({ success: true, duplicate: false });
        expect(await storedFrom(customer.phone)).toHaveLength(1);
        // A request refused for good (400) keeps its nonce used.
        const bad = { ...params, MessageUUID: 'not-a-uuid' };
        const badNonce = '11223344556677889900';
        expect((await signedPlivoPost(t, MESSAGE, bad, fake.authToken, { nonce: badNonce })).statusCode).toBe(
          400,
        );
        expect((await signedPlivoPost(t, MESSAGE, bad, fake.authToken, { nonce: badNonce })).json()).toEqual({
          success: true,
          duplicate: true,
        });
      } finally {
        receive.mockRestore();
      }
    });
  });
});
