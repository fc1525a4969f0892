import { customerWords, readReply } from '@waitlist/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, messages } from '../../db/schema.ts';
import { TextingRefused } from '../../lib/errors.ts';
import { isLocalTestNumber } from '../../providers/sms/local.ts';
import { auth, createTestApp, onboardedUser, type TestApp } from '../../test/test-app.ts';
import { enqueueSms } from '../../test/texting.ts';
import { businessNumbers, conversationCustomers, textingCustomers, verdictAnswer } from '../../wiring.ts';
import { type ConversationDeps, createConversation } from '../conversation/conversation.service.ts';
import type { ClaimTarget } from '../openings/openings.service.ts';
import { createInboundTexts } from './messaging.service.ts';
import {
  addCustomer,
  businessWithNumber,
  customerRow,
  deliverTexts,
  textsTo,
} from './messaging.test-helpers.ts';
import { createTexting } from './texting.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const send = (userId: string, customerId: string, to: string, body: string) => {
  t.clock.advance(1);
  return t.database.db.transaction((tx) =>
    enqueueSms(tx, { userId, customerId, to, body, now: t.clock.now() }),
  );
};

/** A reply from the simulator, a second after the last text (so the send rate never holds its answer back). */
const reply = (from: string, to: string, text: string) => {
  t.clock.advance(1000);
  return t.app.inject({ method: 'POST', url: '/api/v1/dev/phone/reply', payload: { from, to, text } });
};

describe('dedicated number on the local phone', () => {
  it('requests a 555 test number (pending), verifies it at once, and refuses a second request', async () => {
    const user = await onboardedUser(t);
    const empty = await t.app.inject({
      method: 'GET',
      url: '/api/v1/phone-number',
      headers: auth(user.token),
    });
    expect(empty.json()).toEqual({ success: true, data: { number: null, status: null, error: null } });

    const requested = await t.app.inject({
      method: 'POST',
      url: '/api/v1/phone-number/request',
      headers: auth(user.token),
      payload: { areaCode: '415' },
    });
    expect(requested.statusCode).toBe(200);
    const { number, status } = requested.json().data;
    expect(status).toBe('pending');
    expect(number).toMatch(/^\+141555501\d\d$/);
    expect(isLocalTestNumber(number)).toBe(true);

    const me = await t.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: auth(user.token) });
    expect(me.json().data).toMatchObject({ plivoNumber: number, plivoNumberStatus: 'pending' });

    const verified = await t.app.inject({
      method: 'POST',
      url: '/api/v1/phone-number/verify',
      headers: auth(user.token),
    });
    expect(verified.json()).toMatchObject({
      success: true,
      data: { number, status: 'verified', error: null },
    });

    const again = await t.app.inject({
      method: 'POST',
      url: '/api/v1/phone-number/request',
      headers: auth(user.token),
      payload: {},
    });
    expect(again.statusCode).toBe(409);
  });

  it('rejects a malformed area code and asks for login', async () => {
    const user = await onboardedUser(t);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/v1/phone-number/request',
      headers: auth(user.token),
      payload: { areaCode: '12' },
    });
    expect(bad.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/phone-number' })).statusCode).toBe(401);
  });
});

describe('enqueueSms', () => {
  it('refuses while the number is missing or unverified, with a clear 403', async () => {
    const user = await onboardedUser(t);
    const customer = await addCustomer(t, user.id);
    await expect(send(user.id, customer.id, customer.phone, 'Hi')).rejects.toMatchObject({
      statusCode: 403,
      reason: 'number_not_verified',
      message: expect.stringContaining('Request one'),
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/phone-number/request',
      headers: auth(user.token),
      payload: {},
    });
    const refused = await send(user.id, customer.id, customer.phone, 'Hi').catch((error) => error);
    expect(refused).toBeInstanceOf(TextingRefused);
    expect(refused.message).toMatch(/still being verified/);
    expect(await textsTo(t, customer.phone)).toEqual([]);
  });

  it('adds "Reply STOP to opt out" to the first text only, and the local phone marks it delivered', async () => {
    const business = await businessWithNumber(t);
    const customer = await addCustomer(t, business.id);
    const first = await send(business.id, customer.id, customer.phone, 'Your appointment is at 3 pm.');
    await send(business.id, customer.id, customer.phone, 'See you soon.');
    const queued = await textsTo(t, customer.phone);
    expect(queued.map((m) => [m.body, m.status])).toEqual([
      [`Your appointment is at 3 pm.\n${customerWords().texts.optOutFooter}`, 'queued'],
      ['See you soon.', 'queued'],
    ]);
    expect(queued[0]).toMatchObject({
      id: first.messageId,
      fromNumber: business.number,
      segments: 1,
      encoding: 'GSM-7',
    });
    expect((await customerRow(t, customer.id)).firstTextSent).toBe(true);

    await deliverTexts(t);
    const sent = await textsTo(t, customer.phone);
    expect(sent.map((m) => m.status)).toEqual(['delivered', 'delivered']);
    expect(sent[0]!.providerMessageId).toBe(`local-${first.messageId}`);
    expect(sent[0]!.deliveredAt).toEqual(sent[0]!.sentAt);
    // One account's texts go at most 5 a second (the default rate).
    expect(sent[1]!.sentAt!.getTime() - sent[0]!.sentAt!.getTime()).toBeGreaterThanOrEqual(200);

    const thread = await t.app.inject({
      method: 'GET',
      url: `/api/v1/dev/phone/messages?number=${encodeURIComponent(customer.phone)}`,
    });
    expect(thread.json().data.map((m: { body: string }) => m.body)).toEqual(sent.map((m) => m.body));
  });

  it('refuses a customer of another business', async () => {
    const business = await businessWithNumber(t);
    const other = await onboardedUser(t);
    const stranger = await addCustomer(t, other.id);
    await expect(send(business.id, stranger.id, stranger.phone, 'Hi')).rejects.toMatchObject({
      statusCode: 404,
    });
  });
});

describe('keywords', () => {
  it('recognises the STOP, START and HELP words in any case with spaces and punctuation', () => {
    for (const word of ['STOP', 'stop', ' Stop. ', 'STOPALL', 'unsubscribe', 'Cancel!', 'end', 'QUIT'])
      expect(readReply(word).keyword).toBe('stop');
    for (const word of ['START', 'unstop', 'Start!']) expect(readReply(word).keyword).toBe('start');
    expect(readReply('help?').keyword).toBe('help');
    for (const word of ['YES', 'stop texting me please', 'STOPPED', ''])
      expect(readReply(word).keyword).toBe(null);
  });

  it('STOP opts out with one confirmation; nothing is sent until START, which opts back in', async () => {
    const business = await businessWithNumber(t);
    const customer = await addCustomer(t, business.id, { name: 'Grace' });
    await send(business.id, customer.id, customer.phone, 'A slot opened at 3 pm.');
    await deliverTexts(t);
    // Queued before the STOP arrives: must not go out after it.
    await send(business.id, customer.id, customer.phone, 'Reminder: your appointment is tomorrow.');

    const stop = await reply(customer.phone, business.number, 'Stop');
    expect(stop.json()).toMatchObject({ success: true, data: { outcome: 'received', action: 'opted_out' } });
    const optedOut = await customerRow(t, customer.id);
    expect(optedOut).toMatchObject({ optedOut: true, optedOutAt: t.clock.now() });

    let texts = await textsTo(t, customer.phone);
    expect(texts.map((m) => m.status)).toEqual(['delivered', 'failed', 'delivered']);
    expect(texts[2]!.body).toMatch(/^Bella Salon: You have been unsubscribed/);

    await expect(send(business.id, customer.id, customer.phone, 'Another slot')).rejects.toMatchObject({
      statusCode: 403,
      reason: 'opted_out',
      message: expect.stringContaining('Grace opted out'),
    });
    // A second STOP and a HELP while opted out: nothing more is sent.
    await reply(customer.phone, business.number, 'STOPALL');
    await reply(customer.phone, business.number, 'HELP');
    expect(await textsTo(t, customer.phone)).toHaveLength(3);

    const start = await reply(customer.phone, business.number, 'start');
    expect(start.json().data.action).toBe('opted_in');
    expect((await customerRow(t, customer.id)).optedOut).toBe(false);
    await send(business.id, customer.id, customer.phone, 'Welcome back');
    await deliverTexts(t);
    texts = await textsTo(t, customer.phone);
    expect(texts.map((m) => m.body.split(':')[0])).toEqual([
      expect.any(String),
      expect.any(String),
      'Bella Salon',
      'Bella Salon',
      'Welcome back',
    ]);
    expect(texts.at(-1)!.status).toBe('delivered');
  });

  it('HELP answers with the business name and how to opt out', async () => {
    const business = await businessWithNumber(t);
    const customer = await addCustomer(t, business.id);
    const help = await reply(customer.phone, business.number, ' help ');
    expect(help.json().data.action).toBe('help');
    const [answer] = await textsTo(t, customer.phone);
    expect(answer!.body).toContain('Bella Salon');
    expect(answer!.body).toContain('Reply STOP to opt out');
    expect(answer!.status).toBe('delivered');
    // Every inbound text is stored in the conversation too.
    const inbound = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.fromNumber, customer.phone));
    expect(inbound).toMatchObject([
      { direction: 'in', body: ' help ', status: 'received', customerId: customer.id },
    ]);
  });

  it('hands a YES to the slot it answers, inside the inbound transaction, once per provider message id', async () => {
    const business = await businessWithNumber(t);
    const customer = await addCustomer(t, business.id);
    const calls: { customerId: string }[] = [];
    const target = {
      opening: {} as ClaimTarget['opening'],
      offer: { openingOpen: true, won: false, told: false },
    };
    const claims: ConversationDeps['claims'] = {
      answeredOffer: async () => target,
      claim: async (tx, { userId, customer: who, now }) => {
        calls.push({ customerId: who.id });
        await tx.update(customers).set({ status: 'booked' }).where(eq(customers.id, who.id));
        await enqueueSms(tx, { userId, customerId: who.id, to: who.phone, body: 'You got the slot!', now });
        return { told: [] };
      },
      wasTold: async () => false,
      settleLost: async () => 'waiting',
      backOut: async () => false,
    };
    const conversation = conversationWith({ claims });
    const result = await conversation.receiveInbound({
      from: customer.phone.slice(1),
      to: business.number.slice(1),
      text: 'Yes!',
      providerMessageId: 'in-1',
    });
    expect(result).toMatchObject({ outcome: 'received', action: 'reply' });
    expect(calls).toEqual([{ customerId: customer.id }]);
    expect((await customerRow(t, customer.id)).status).toBe('booked');
    expect((await textsTo(t, customer.phone)).map((m) => m.body)).toEqual([
      `You got the slot!\n${customerWords().texts.optOutFooter}`,
    ]);

    // The same provider message id again: applied once.
    const replay = await conversation.receiveInbound({
      from: customer.phone,
      to: business.number,
      text: 'Yes!',
      providerMessageId: 'in-1',
    });
    expect(replay).toEqual({ outcome: 'duplicate' });
    expect(calls).toHaveLength(1);
  });

  it('a failure while acting rolls the inbound text back, so a retried webhook is applied later', async () => {
    const business = await businessWithNumber(t);
    const customer = await addCustomer(t, business.id);
    let fail = true;
    const conversation = conversationWith({
      claims: {
        ...t.app.services.openings.claims,
        answeredOffer: async (...args) => {
          if (fail) throw new Error('database hiccup');
          return t.app.services.openings.claims.answeredOffer(...args);
        },
      },
    });
    const input = { from: customer.phone, to: business.number, text: 'yes', providerMessageId: 'in-retry' };
    await expect(conversation.receiveInbound(input)).rejects.toThrow('database hiccup');
    fail = false;
    expect(await conversation.receiveInbound(input)).toMatchObject({ outcome: 'received' });
  });
});

/** The conversation as app.ts builds it, with `overrides` in place of its parts. */
function conversationWith(overrides: Partial<ConversationDeps>) {
  const texting = createTexting(textingCustomers, businessNumbers);
  return createConversation({
    db: t.database.db,
    clock: t.clock,
    logger: { info() {}, warn() {}, error() {}, debug() {} } as unknown as ConversationDeps['logger'],
    texts: createInboundTexts(t.database.db, texting, verdictAnswer),
    claims: t.app.services.openings.claims,
    customers: conversationCustomers,
    ...overrides,
  });
}

describe('/dev/phone', () => {
  it('lists numbers that received texts, shows the thread and replies through the inbound path', async () => {
    const business = await businessWithNumber(t);
    const customer = await addCustomer(t, business.id);
    await send(business.id, customer.id, customer.phone, 'A 3 pm slot opened. Reply YES to take it.');
    await deliverTexts(t);
    t.clock.advance(1000);

    const page = await t.app.inject({ method: 'GET', url: '/dev/phone' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain(customer.phone);

    const thread = await t.app.inject({
      method: 'GET',
      url: `/dev/phone?number=${encodeURIComponent(customer.phone)}`,
    });
    expect(thread.body).toContain('A 3 pm slot opened. Reply YES to take it.');
    expect(thread.body).toContain(`<option>${business.number}</option>`);

    const posted = await t.app.inject({
      method: 'POST',
      url: '/dev/phone/reply',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ from: customer.phone, to: business.number, text: 'HELP' }).toString(),
    });
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toBe(`/dev/phone?number=${encodeURIComponent(customer.phone)}`);
    const after = await t.app.inject({ method: 'GET', url: posted.headers.location as string });
    expect(after.body).toContain('data-direction="in"');
    expect(after.body).toContain('Msg &#38; data rates may apply');
  });

  it('answers 400 for a bad number and 404 for a number no business uses', async () => {
    const bad = await t.app.inject({ method: 'GET', url: '/api/v1/dev/phone/messages?number=123' });
    expect(bad.statusCode).toBe(400);
    const unknown = await reply('+16465550000', '+15555550999', 'hi');
    expect(unknown.statusCode).toBe(404);
  });
});
