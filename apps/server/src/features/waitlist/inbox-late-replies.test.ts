import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { addCustomer, call, owner, replyASecondLater, unreadReplies } from './waitlist.test-helpers.ts';

/**
 * Issue 27: what reaches the owner's inbox. A YES that arrives after the slot is decided is not marked read
 * unseen (only the YES that won is: the opening shows it), and a customer's question after the once-a-day
 * automatic answer still reaches the owner: unread in the inbox, and on the phone when push is on.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function unreadOf(token: string, name: string) {
  const list = (await call(t, token, 'GET', '/inbox')).json().data as {
    customer: { name: string };
    unread: number;
    lastReply: { body: string } | null;
  }[];
  return list.find((conversation) => conversation.customer.name === name);
}

describe('late replies and questions reach the owner', () => {
  it('a YES after the slot is filled stays unread; the winning YES is read', async () => {
    const o = await owner(t, { plan: 'growth' });
    const ann = await addCustomer(t, o.token, 811, { name: 'Ann Winner' });
    const bob = await addCustomer(t, o.token, 812, { name: 'Bob Late' });
    const cara = await addCustomer(t, o.token, 813, { name: 'Cara Later' });
    const opened = await call(t, o.token, 'POST', '/openings', {
      startsAt: new Date(t.clock.now().getTime() + 3 * 3_600_000).toISOString(),
      durationMinutes: 45,
      service: 'Cut',
      priceCents: 5000,
      mode: 'all',
    });
    expect(opened.statusCode, opened.body).toBe(201);
    await t.app.outbox.drain();

    await replyASecondLater(t, ann.phone, o.number, 'YES');
    const opening = (await call(t, o.token, 'GET', `/openings/${opened.json().data.id}`)).json().data;
    expect(opening.status).toBe('filled');
    expect(await unreadReplies(t, o.token)).toBe(0); // the win shows on the opening, not as a message to read
    await t.app.outbox.drain();

    // Bob's YES decides in the transaction (he is still held as offered); Cara's, once told, in one statement.
    await replyASecondLater(t, bob.phone, o.number, 'YES');
    await t.app.outbox.drain();
    await replyASecondLater(t, cara.phone, o.number, 'yes please');
    await replyASecondLater(t, bob.phone, o.number, 'YES!');
    expect(await unreadReplies(t, o.token)).toBe(3);
    expect(await unreadOf(o.token, 'Bob Late')).toMatchObject({ unread: 2, lastReply: { body: 'YES!' } });
    expect(await unreadOf(o.token, 'Cara Later')).toMatchObject({
      unread: 1,
      lastReply: { body: 'yes please' },
    });
    expect(await unreadOf(o.token, 'Ann Winner')).toMatchObject({ unread: 0 });
  });

  it('a question after the daily automatic answer is unread with push on (push.test.ts: and pushed)', async () => {
    const o = await owner(t, { plan: 'growth' });
    await t.database.db.update(users).set({ pushNotificationsEnabled: true }).where(eq(users.id, o.id));
    const dee = await addCustomer(t, o.token, 821, { name: 'Dee Asks' });
    await replyASecondLater(t, dee.phone, o.number, 'what time?');
    await replyASecondLater(t, dee.phone, o.number, 'I need to cancel, is that ok?');
    expect(await unreadOf(o.token, 'Dee Asks')).toMatchObject({
      unread: 2,
      lastReply: { body: 'I need to cancel, is that ok?' },
    });
    const answers = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.customerId, dee.id), eq(messages.direction, 'out')));
    expect(answers).toHaveLength(1); // the automatic answer once a day
  });

  it('with push off, every question after the automatic answer is still unread in the inbox', async () => {
    const o = await owner(t, { plan: 'growth' });
    const eve = await addCustomer(t, o.token, 831, { name: 'Eve Asks' });
    await replyASecondLater(t, eve.phone, o.number, 'what time?');
    await replyASecondLater(t, eve.phone, o.number, 'hello?');
    await replyASecondLater(t, eve.phone, o.number, 'can I cancel my 4pm?');
    expect(await unreadOf(o.token, 'Eve Asks')).toMatchObject({
      unread: 3,
      lastReply: { body: 'can I cancel my 4pm?' },
    });
  });

  it('the opening’s row of a customer who asked says what (“Asked: …”), not a YES, STOP or HELP', async () => {
    const o = await owner(t, { plan: 'growth' });
    const fay = await addCustomer(t, o.token, 841, { name: 'Fay Asks' });
    const gus = await addCustomer(t, o.token, 842, { name: 'Gus Help' });
    await replyASecondLater(t, fay.phone, o.number, 'Before the slot: hello'); // before the alert: not about it
    const opened = await call(t, o.token, 'POST', '/openings', {
      startsAt: new Date(t.clock.now().getTime() + 3 * 3_600_000).toISOString(),
      durationMinutes: 30,
      service: 'Cut',
      priceCents: 4000,
      mode: 'all',
    });
    expect(opened.statusCode, opened.body).toBe(201);
    await t.app.outbox.drain();
    await replyASecondLater(t, fay.phone, o.number, 'what time?');
    await replyASecondLater(t, fay.phone, o.number, 'is it with Maria?');
    await replyASecondLater(t, gus.phone, o.number, 'HELP');
    const detail = (await call(t, o.token, 'GET', `/openings/${opened.json().data.id}`)).json().data;
    const offerOf = (name: string) => detail.offers.find((offer: { name: string }) => offer.name === name);
    expect(offerOf('Fay Asks').question).toMatchObject({ body: 'is it with Maria?' });
    expect(offerOf('Gus Help').question).toBeNull();
  });

  it('a text from a number that is not a customer is no unread the owner could never open', async () => {
    const o = await owner(t, { plan: 'growth' });
    await replyASecondLater(t, '+12125559901', o.number, 'hello, is this the salon?');
    await replyASecondLater(t, '+12125559902', o.number, 'YES');
    expect(await unreadReplies(t, o.token)).toBe(0);
    expect((await call(t, o.token, 'GET', '/inbox')).json().data).toEqual([]);
  });
});
