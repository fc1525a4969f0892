import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, outbox } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { addCustomer, call, owner, replyASecondLater, unreadReplies } from './waitlist.test-helpers.ts';

/** Issue 15: the owner's inbox. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('the inbox', () => {
  it('lists conversations with replies newest first, with unread counts that go down when read', async () => {
    const o = await owner(t, { plan: 'growth' });
    const ann = await addCustomer(t, o.token, 601, { name: 'Ann Lee' });
    const bob = await addCustomer(t, o.token, 602, { name: 'Bob Stone' });
    await addCustomer(t, o.token, 603, { name: 'Cara Diaz' }); // never replied: not in the inbox
    expect(await unreadReplies(t, o.token)).toBe(0);
    expect((await call(t, o.token, 'GET', '/inbox')).json()).toMatchObject({ data: [], nextCursor: null });

    await replyASecondLater(t, ann.phone, o.number, 'Do you have anything Friday?');
    await replyASecondLater(t, bob.phone, o.number, 'Running 5 min late');
    await replyASecondLater(t, ann.phone, o.number, 'Morning works too');
    await replyASecondLater(t, bob.phone, o.number, 'HELP'); // a keyword: answered by the app, not unread
    expect(await unreadReplies(t, o.token)).toBe(3);

    const list = (await call(t, o.token, 'GET', '/inbox')).json();
    expect(
      list.data.map(
        (c: { customer: { name: string }; unread: number; lastMessage: { direction: string } }) => [
          c.customer.name,
          c.unread,
          c.lastMessage.direction,
        ],
      ),
    ).toEqual([
      ['Bob Stone', 1, 'out'], // HELP's answer is the newest text
      ['Ann Lee', 2, 'in'],
    ]);
    expect(list.data[1].lastMessage.body).toBe('Morning works too');
    expect(list.data[1].lastReply.body).toBe('Morning works too');
    expect(list.data[0].lastReply.body).toBe('HELP');

    // Opening Ann's conversation reads it.
    const thread = (await call(t, o.token, 'GET', `/inbox/${ann.id}`)).json();
    expect(thread.customer.name).toBe('Ann Lee');
    expect(
      thread.data
        .filter((m: { direction: string }) => m.direction === 'in')
        .map((m: { body: string }) => m.body),
    ).toEqual(['Do you have anything Friday?', 'Morning works too']);
    // The first free-text reply got the one automatic answer; the second did not.
    expect(thread.data.filter((m: { direction: string }) => m.direction === 'out')).toHaveLength(1);
    expect(await unreadReplies(t, o.token)).toBe(1);
    const read = await call(t, o.token, 'POST', `/inbox/${bob.id}/read`);
    expect(read.json()).toEqual({ success: true, data: { unread: 0 } });
  });

  it('previews the customer’s last words, not the automatic answer that followed them (issue 27)', async () => {
    const o = await owner(t, { plan: 'growth' });
    const ann = await addCustomer(t, o.token, 651, { name: 'Ann Lee' });
    await replyASecondLater(t, ann.phone, o.number, 'what time?');
    const thread = (await call(t, o.token, 'GET', `/inbox/${ann.id}`)).json();
    expect(thread.data.at(-1)).toMatchObject({ direction: 'out' }); // the automatic answer came last

    const [conversation] = (await call(t, o.token, 'GET', '/inbox')).json().data;
    expect(conversation.lastMessage.direction).toBe('out'); // the order stays by latest activity
    expect(conversation.lastReply).toMatchObject({ body: 'what time?' });
    expect(conversation.lastReply.createdAt).toBe(thread.data.at(-2).createdAt);

    // The owner's own answer does not take the preview either.
    await call(t, o.token, 'POST', `/inbox/${ann.id}/reply`, { body: 'At 4.' });
    const [after] = (await call(t, o.token, 'GET', '/inbox')).json().data;
    expect(after.lastReply.body).toBe('what time?');
  });

  it('shows each reply beside the alert it answered', async () => {
    const o = await owner(t, { plan: 'growth' });
    const ann = await addCustomer(t, o.token, 611, { name: 'Ann Lee' });
    const opened = await call(t, o.token, 'POST', '/openings', {
      startsAt: new Date(t.clock.now().getTime() + 3 * 3_600_000).toISOString(),
      durationMinutes: 45,
      service: 'Color',
      priceCents: 9000,
      mode: 'all',
    });
    expect(opened.statusCode, opened.body).toBe(201);
    await replyASecondLater(t, ann.phone, o.number, 'Is it with Maria?');
    const thread = (await call(t, o.token, 'GET', `/inbox/${ann.id}`)).json();
    const question = thread.data.find((m: { body: string }) => m.body === 'Is it with Maria?');
    expect(question.context).toMatchObject({
      openingId: opened.json().data.id,
      service: 'Color',
      status: 'open',
      won: false,
    });
    // The alert itself (outbound) carries no context.
    expect(thread.data[0].direction).toBe('out');
    expect(thread.data[0].context).toBeNull();
  });

  it('answers from the app through the outbox, and reads the conversation', async () => {
    const o = await owner(t, { plan: 'growth' });
    const ann = await addCustomer(t, o.token, 621, { name: 'Ann Lee' });
    await replyASecondLater(t, ann.phone, o.number, 'Can I bring my daughter?');
    const answer = await call(t, o.token, 'POST', `/inbox/${ann.id}/reply`, { body: 'Of course!' });
    expect(answer.statusCode, answer.body).toBe(201);
    expect(answer.json()).toMatchObject({
      success: true,
      message: 'Your reply is on its way.',
      data: { direction: 'out', status: 'queued', customerId: ann.id },
    });
    const queued = await t.database.db.select().from(outbox).where(eq(outbox.kind, 'sms'));
    expect(queued.some((row) => JSON.stringify(row.payload).includes(answer.json().data.id))).toBe(true);
    expect(await unreadReplies(t, o.token)).toBe(0);
    const sent = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.customerId, ann.id), eq(messages.direction, 'out')))
      .orderBy(asc(messages.seq));
    expect(sent.at(-1)!.body.startsWith('Of course!')).toBe(true);
  });

  it('refuses an answer to a customer who opted out, and queues nothing', async () => {
    const o = await owner(t, { plan: 'growth' });
    const bob = await addCustomer(t, o.token, 631, { name: 'Bob Stone' });
    await replyASecondLater(t, bob.phone, o.number, 'who is this');
    await replyASecondLater(t, bob.phone, o.number, 'STOP');
    const before = await t.database.db.select().from(messages).where(eq(messages.customerId, bob.id));
    const answer = await call(t, o.token, 'POST', `/inbox/${bob.id}/reply`, { body: 'Sorry!' });
    expect(answer.statusCode).toBe(403);
    expect(answer.json().message).toMatch(/opted out/);
    const after = await t.database.db.select().from(messages).where(eq(messages.customerId, bob.id));
    expect(after).toHaveLength(before.length);
  });

  it('checks the answer and the customer, and never shows another business’s customer', async () => {
    const o = await owner(t, { plan: 'growth' });
    const other = await owner(t, { plan: 'growth' });
    const ann = await addCustomer(t, o.token, 641, { name: 'Ann Lee' });
    const empty = await call(t, o.token, 'POST', `/inbox/${ann.id}/reply`, { body: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toEqual({ body: 'Message is required' });
    expect((await call(t, other.token, 'GET', `/inbox/${ann.id}`)).statusCode).toBe(404);
    expect((await call(t, other.token, 'POST', `/inbox/${ann.id}/reply`, { body: 'hi' })).statusCode).toBe(
      404,
    );
    expect((await call(t, o.token, 'GET', '/inbox?before=abc')).statusCode).toBe(400);
  });

  it('pages with a cursor', async () => {
    const o = await owner(t, { plan: 'growth' });
    for (let n = 0; n < 32; n += 1) {
      const customer = await addCustomer(t, o.token, 700 + n);
      await replyASecondLater(t, customer.phone, o.number, `hello ${n}`);
    }
    const first = (await call(t, o.token, 'GET', '/inbox')).json();
    expect(first.data).toHaveLength(30);
    expect(first.data[0].customer.name).toBe('Customer 731');
    const second = (await call(t, o.token, 'GET', `/inbox?before=${first.nextCursor}`)).json();
    expect(second.data.map((c: { customer: { name: string } }) => c.customer.name)).toEqual([
      'Customer 701',
      'Customer 700',
    ]);
    expect(second.nextCursor).toBeNull();
  });
});
