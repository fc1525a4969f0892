import { randomUUID } from 'node:crypto';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { customers, messages, offers, openings, outbox, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { receiveText } from '../messaging/messaging.test-helpers.ts';
import { addCustomer, call, owner } from '../waitlist/waitlist.test-helpers.ts';

/**
 * Issue 16: a reply that asks nothing of anyone is stored in one statement, the database deciding
 * by `quietReply`, openings' reply rules written in SQL; so is one whose only consequence is the automatic
 * answer (`autoAnswer`), queued in that statement. These hold the SQL to the rules it mirrors: whenever it
 * says quiet, onCustomerReply does nothing; whenever it answers, it writes what onCustomerReply writes; where
 * more is due, it does neither.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const HOUR = 3_600_000;
let phone = 700;

async function customerIn(state: {
  push: boolean;
  status: 'waiting' | 'removed';
  answeredHoursAgo: number | null;
}) {
  const o = await owner(t, { plan: 'growth' });
  phone += 1;
  const customer = await addCustomer(t, o.token, phone, { name: 'Ann Lee' });
  const now = t.clock.now();
  await t.database.db.update(users).set({ pushNotificationsEnabled: state.push }).where(eq(users.id, o.id));
  await t.database.db
    .update(customers)
    .set({
      status: state.status,
      autoAnsweredAt:
        state.answeredHoursAgo === null ? null : new Date(now.getTime() - state.answeredHoursAgo * HOUR),
    })
    .where(eq(customers.id, customer.id));
  return { o, customer };
}

async function saysQuiet(customerId: string, claim = false) {
  const now = t.clock.now().toISOString();
  const condition = t.app.services.openings.quietReply(
    { u: sql`u`, c: sql`c` },
    sql`${now}::timestamptz`,
    claim,
  );
  const result = await t.database.db.execute(
    sql`select ${condition} as quiet from ${users} u join ${customers} c on c.user_id = u.id where c.id = ${customerId}`,
  );
  return (result as unknown as { rows: { quiet: boolean }[] }).rows[0]!.quiet;
}

async function saysAnswerDue(customerId: string) {
  const now = t.clock.now().toISOString();
  const condition = t.app.services.openings.autoAnswer.due(
    { u: sql`u`, c: sql`c` },
    sql`${now}::timestamptz`,
  );
  const result = await t.database.db.execute(
    sql`select ${condition} as due from ${users} u join ${customers} c on c.user_id = u.id where c.id = ${customerId}`,
  );
  return (result as unknown as { rows: { due: boolean }[] }).rows[0]!.due;
}

/** What a reply could change: the outbox, the customer's row, the business's openings. */
async function snapshot(userId: string, customerId: string) {
  const [queued] = await t.database.db.select({ n: count() }).from(outbox);
  const [customer] = await t.database.db.select().from(customers).where(eq(customers.id, customerId));
  const slots = await t.database.db
    .select({ id: openings.id, status: openings.status, winner: openings.winnerCustomerId })
    .from(openings)
    .where(eq(openings.userId, userId));
  return JSON.stringify({ queued: queued!.n, customer, slots });
}

/** Runs onCustomerReply as the inbound transaction would: did it write anything? */
async function handlerWrites(userId: string, customerId: string, body = 'Thanks!') {
  const before = await snapshot(userId, customerId);
  const [customer] = await t.database.db.select().from(customers).where(eq(customers.id, customerId));
  const [user] = await t.database.db.select().from(users).where(eq(users.id, userId));
  await t.database.db.transaction((tx) =>
    t.app.services.openings.onCustomerReply({
      tx,
      userId,
      business: {
        name: user!.businessName,
        timeZone: user!.timeZone,
        pushEnabled: user!.pushNotificationsEnabled,
      },
      customer: customer!,
      body,
      now: t.clock.now(),
    }),
  );
  return (await snapshot(userId, customerId)) !== before;
}

async function openSlot(token: string) {
  const response = await call(t, token, 'POST', '/openings', {
    startsAt: new Date(t.clock.now().getTime() + 3 * HOUR).toISOString(),
    durationMinutes: 45,
    service: 'Haircut',
    priceCents: 6500,
    mode: 'all',
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.id as string;
}

describe('quietReply for free text', () => {
  it.each([
    { push: false, status: 'waiting', answeredHoursAgo: 1, quiet: true },
    { push: false, status: 'waiting', answeredHoursAgo: 23.9, quiet: true },
    { push: false, status: 'removed', answeredHoursAgo: null, quiet: true },
    { push: false, status: 'waiting', answeredHoursAgo: null, quiet: false },
    { push: false, status: 'waiting', answeredHoursAgo: 24.1, quiet: false },
    { push: true, status: 'waiting', answeredHoursAgo: 1, quiet: false },
    { push: true, status: 'removed', answeredHoursAgo: null, quiet: false },
  ] as const)('push $push, $status, answered $answeredHoursAgo h ago: quiet $quiet', async (state) => {
    const { o, customer } = await customerIn(state);
    expect(await saysQuiet(customer.id)).toBe(state.quiet);
    // Push off, free text is either quiet or answered; push on, neither (the owner's phone hears of it).
    expect(await saysAnswerDue(customer.id)).toBe(!state.quiet && !state.push);
    // Quiet means the handler does nothing. (Push on is never quiet: it writes when the owner has a device.)
    const writes = await handlerWrites(o.id, customer.id);
    if (state.quiet) expect(writes).toBe(false);
    else if (!state.push) expect(writes).toBe(true);
  });
});

describe('quietReply for a claim', () => {
  /** A business with two customers texted about one slot; `setUp` shapes it; did the SQL and the handler agree? */
  async function claimCase(setUp: (s: Awaited<ReturnType<typeof slot>>) => Promise<unknown>) {
    const s = await slot();
    await setUp(s);
    const quiet = await saysQuiet(s.ann.id, true);
    const writes = await handlerWrites(s.o.id, s.ann.id, 'YES');
    return { quiet, writes };
  }
  async function slot() {
    const o = await owner(t, { plan: 'growth' });
    phone += 2;
    const ann = await addCustomer(t, o.token, phone, { name: 'Ann Lee' });
    const bob = await addCustomer(t, o.token, phone + 1, { name: 'Bob Stone' });
    return { o, ann, bob, openingId: '' };
  }
  const bobWins = async (s: Awaited<ReturnType<typeof slot>>) => {
    s.openingId = await openSlot(s.o.token);
    await receiveText(t, s.bob.phone, s.o.number, 'YES');
  };

  it('never texted about a slot: quiet, nothing happens', async () => {
    expect(await claimCase(async () => {})).toEqual({ quiet: true, writes: false });
  });
  it('an open slot: not quiet, the claim takes it', async () => {
    const result = await claimCase(async (s) => {
      s.openingId = await openSlot(s.o.token);
    });
    expect(result).toEqual({ quiet: false, writes: true });
  });
  it('a slot filled by another and the customer told: quiet', async () => {
    expect(await claimCase(bobWins)).toEqual({ quiet: true, writes: false });
  });
  it('the winner says YES again: quiet', async () => {
    const s = await slot();
    s.openingId = await openSlot(s.o.token);
    await receiveText(t, s.ann.phone, s.o.number, 'YES');
    expect(await saysQuiet(s.ann.id, true)).toBe(true);
    expect(await handlerWrites(s.o.id, s.ann.id, 'YES')).toBe(false);
  });
  it('a filled slot the customer was not told about: not quiet, they are told', async () => {
    const result = await claimCase(async (s) => {
      await bobWins(s);
      await t.database.db
        .update(offers)
        .set({ toldAt: null })
        .where(and(eq(offers.openingId, s.openingId), eq(offers.customerId, s.ann.id)));
    });
    expect(result).toEqual({ quiet: false, writes: true });
  });
  it('a filled slot while the customer is held as offered: not quiet, they are released', async () => {
    const result = await claimCase(async (s) => {
      await bobWins(s);
      await t.database.db.update(customers).set({ status: 'offered' }).where(eq(customers.id, s.ann.id));
    });
    expect(result).toEqual({ quiet: false, writes: true });
  });
  it('a removed customer: quiet', async () => {
    const result = await claimCase(async (s) => {
      s.openingId = await openSlot(s.o.token);
      await t.database.db.update(customers).set({ status: 'removed' }).where(eq(customers.id, s.ann.id));
    });
    expect(result).toEqual({ quiet: true, writes: false });
  });
});

describe('a quiet reply', () => {
  it('is stored unread in the conversation, queues nothing, and a replay of it is stored once', async () => {
    const { o, customer } = await customerIn({ push: false, status: 'waiting', answeredHoursAgo: 2 });
    const outboxBefore = (await t.database.db.select({ n: count() }).from(outbox))[0]!.n;
    const input = { from: customer.phone, to: o.number, text: 'Thanks!', providerMessageId: 'quiet-1' };
    const first = await t.app.services.messaging.receiveInbound(input);
    expect(first).toMatchObject({ outcome: 'received', action: 'reply' });
    expect(await t.app.services.messaging.receiveInbound(input)).toEqual({ outcome: 'duplicate' });
    const stored = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.providerMessageId, 'quiet-1'));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      customerId: customer.id,
      direction: 'in',
      body: 'Thanks!',
      status: 'received',
      readAt: null,
    });
    expect((await t.database.db.select({ n: count() }).from(outbox))[0]!.n).toBe(outboxBefore);
  });

  it('from an opted-out customer is stored and ignored', async () => {
    const { o, customer } = await customerIn({ push: true, status: 'waiting', answeredHoursAgo: null });
    await t.database.db.update(customers).set({ optedOut: true }).where(eq(customers.id, customer.id));
    const result = await receiveText(t, customer.phone, o.number, 'who is this');
    expect(result).toMatchObject({ outcome: 'received', action: 'ignored' });
  });

  it('that is a late YES is stored read, and the slot stays with its winner', async () => {
    const o = await owner(t, { plan: 'growth' });
    phone += 2;
    const ann = await addCustomer(t, o.token, phone, { name: 'Ann Lee' });
    const bob = await addCustomer(t, o.token, phone + 1, { name: 'Bob Stone' });
    const openingId = await openSlot(o.token);
    await receiveText(t, bob.phone, o.number, 'YES');
    const outboxBefore = (await t.database.db.select({ n: count() }).from(outbox))[0]!.n;
    const input = { from: ann.phone, to: o.number, text: 'Yes!', providerMessageId: 'quiet-yes-1' };
    expect(await t.app.services.messaging.receiveInbound(input)).toMatchObject({
      outcome: 'received',
      action: 'reply',
    });
    expect(await t.app.services.messaging.receiveInbound(input)).toEqual({ outcome: 'duplicate' });
    const [stored] = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.providerMessageId, 'quiet-yes-1'));
    expect(stored!.readAt).not.toBeNull();
    expect((await t.database.db.select({ n: count() }).from(outbox))[0]!.n).toBe(outboxBefore);
    const [slotRow] = await t.database.db.select().from(openings).where(eq(openings.id, openingId));
    expect(slotRow).toMatchObject({ status: 'filled', winnerCustomerId: bob.id });
  });

  it('that is not quiet after all (an answer is due) takes the transaction and gets its answer', async () => {
    const { o, customer } = await customerIn({ push: false, status: 'waiting', answeredHoursAgo: null });
    const result = await receiveText(t, customer.phone, o.number, 'Thanks!');
    expect(result).toMatchObject({ outcome: 'received', action: 'reply' });
    const [row] = await t.database.db.select().from(customers).where(eq(customers.id, customer.id));
    expect(row!.autoAnsweredAt).not.toBeNull();
  });
});

describe('a reply answered in its own statement (the automatic answer)', () => {
  /** Counts the transactions receiveInbound opens: the one-statement way opens none. */
  async function receive(
    from: string,
    to: string,
    text: string,
    providerMessageId = `answer-${randomUUID()}`,
  ) {
    const transactions = vi.spyOn(t.database.db, 'transaction');
    try {
      const result = await t.app.services.messaging.receiveInbound({ from, to, text, providerMessageId });
      return { result, transactions: transactions.mock.calls.length };
    } finally {
      transactions.mockRestore();
    }
  }
  /** The texts queued to a customer, oldest first, with their outbox rows. */
  async function textsTo(customerId: string) {
    const rows = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.customerId, customerId), eq(messages.direction, 'out')))
      .orderBy(messages.createdAt, messages.seq);
    const queued = await t.database.db
      .select({ payload: outbox.payload, kind: outbox.kind, status: outbox.status })
      .from(outbox)
      .where(
        inArray(
          sql`${outbox.payload}->>'messageId'`,
          rows.map((row) => row.id),
        ),
      );
    return rows.map((row) => ({
      from: row.fromNumber,
      to: row.toNumber,
      body: row.body,
      segments: row.segments,
      encoding: row.encoding,
      status: row.status,
      openingId: row.openingId,
      outbox: queued
        .filter((q) => (q.payload as { messageId: string }).messageId === row.id)
        .map((q) => ({ kind: q.kind, status: q.status })),
    }));
  }
  const customerState = async (id: string) => {
    const [row] = await t.database.db.select().from(customers).where(eq(customers.id, id));
    return { autoAnsweredAt: row!.autoAnsweredAt, firstTextSent: row!.firstTextSent, status: row!.status };
  };

  it.each([
    { case: 'a first text, with the opt-out footer', businessName: 'Sunny Cuts', texted: false },
    { case: 'a customer texted before', businessName: 'Sunny Cuts', texted: true },
    { case: 'a business with no name yet', businessName: '', texted: false },
    { case: 'a name outside GSM-7 (sent as UCS-2)', businessName: 'Café Ōsaka ✂', texted: true },
  ])('$case: queues what onCustomerReply queues, in one statement', async ({ businessName, texted }) => {
    const o = await owner(t, { plan: 'growth' });
    await t.database.db.update(users).set({ businessName }).where(eq(users.id, o.id));
    phone += 2;
    const [ann, bob] = [
      await addCustomer(t, o.token, phone, { name: 'Ann Lee' }),
      await addCustomer(t, o.token, phone + 1, { name: 'Bob Stone' }),
    ];
    await t.database.db
      .update(customers)
      .set({ firstTextSent: texted })
      .where(sql`${customers.id} in (${ann.id}, ${bob.id})`);
    // Ann's reply through the webhook's way; Bob's, in the same state, through the handler in a transaction.
    const { result, transactions } = await receive(ann.phone, o.number, 'Running 5 min late');
    expect(result).toMatchObject({ outcome: 'received', action: 'reply' });
    expect(transactions).toBe(0);
    expect(await handlerWrites(o.id, bob.id, 'Running 5 min late')).toBe(true);

    const [annTexts, bobTexts] = [await textsTo(ann.id), await textsTo(bob.id)];
    expect(annTexts).toHaveLength(1);
    expect(annTexts).toEqual(bobTexts.map((text) => ({ ...text, to: ann.phone })));
    expect(annTexts[0]).toMatchObject({
      from: o.number,
      status: 'queued',
      outbox: [{ kind: 'sms', status: 'pending' }],
    });
    expect(annTexts[0]!.body.startsWith(`${businessName || 'Your business'}: Thanks for your message!`)).toBe(
      true,
    );
    expect(annTexts[0]!.body.includes('STOP')).toBe(!texted);
    expect(annTexts[0]!.encoding).toBe(businessName.includes('✂') ? 'UCS-2' : 'GSM-7');
    expect(await customerState(ann.id)).toEqual(await customerState(bob.id));
    expect(await customerState(ann.id)).toMatchObject({ autoAnsweredAt: t.clock.now(), firstTextSent: true });
  });

  it('stores the reply before its answer, unread, and a replay stores and answers nothing more', async () => {
    const { o, customer } = await customerIn({ push: false, status: 'waiting', answeredHoursAgo: null });
    const first = await receive(customer.phone, o.number, 'Can I bring my son?', 'answer-replay');
    expect(first.result).toMatchObject({ outcome: 'received', action: 'reply' });
    expect(await receive(customer.phone, o.number, 'Can I bring my son?', 'answer-replay')).toEqual({
      result: { outcome: 'duplicate' },
      transactions: 0,
    });
    const thread = await t.database.db
      .select({ direction: messages.direction, readAt: messages.readAt, body: messages.body })
      .from(messages)
      .where(eq(messages.customerId, customer.id))
      .orderBy(messages.createdAt, messages.seq);
    expect(thread.map((m) => m.direction)).toEqual(['in', 'out']);
    expect(thread[0]).toMatchObject({ body: 'Can I bring my son?', readAt: null });
    // The next reply within 24 hours is quiet: no second answer.
    await receive(customer.phone, o.number, 'Never mind');
    expect(await textsTo(customer.id)).toHaveLength(1);
  });

  it('answers replies that race only once', async () => {
    const { o, customer } = await customerIn({ push: false, status: 'waiting', answeredHoursAgo: null });
    const texts = ['Hello?', 'Anyone there?', 'Hi'];
    // The customer's row held by another transaction: on PostgreSQL every reply reads it unanswered and waits
    // at its claim, so all three race for it when the row is let go (PGlite runs them one after another).
    let racing: Promise<Awaited<ReturnType<typeof receive>>[]> | undefined;
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`select id from ${customers} where id = ${customer.id} for update`);
      racing = Promise.all(texts.map((text) => receive(customer.phone, o.number, text)));
      if (t.database.kind === 'postgres') {
        for (let waited = 0; waited < 5_000; waited += 10) {
          const result = await t.database.db.execute(
            sql`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`,
          );
          if ((result as unknown as { rows: { n: number }[] }).rows[0]!.n >= texts.length) break;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }
    });
    const results = await racing!;
    expect(results.map((r) => r.result)).toEqual(
      texts.map(() => expect.objectContaining({ outcome: 'received', action: 'reply' })),
    );
    expect(await textsTo(customer.id)).toHaveLength(1);
  });

  it('uses the business name the owner just changed', async () => {
    const o = await owner(t, { plan: 'growth' });
    phone += 2;
    const ann = await addCustomer(t, o.token, phone, { name: 'Ann Lee' });
    const bob = await addCustomer(t, o.token, phone + 1, { name: 'Bob Stone' });
    await t.database.db.update(users).set({ businessName: 'Old Name' }).where(eq(users.id, o.id));
    await receive(ann.phone, o.number, 'Hi');
    await t.database.db.update(users).set({ businessName: 'New Name' }).where(eq(users.id, o.id));
    const { transactions } = await receive(bob.phone, o.number, 'Hi');
    expect(transactions).toBe(0);
    expect((await textsTo(ann.id))[0]!.body).toMatch(/^Old Name: /);
    expect((await textsTo(bob.id))[0]!.body).toMatch(/^New Name: /);
  });

  it('leaves a number that cannot text to the transaction, which sends nothing', async () => {
    const { o, customer } = await customerIn({ push: false, status: 'waiting', answeredHoursAgo: null });
    await t.database.db.update(users).set({ plivoNumberStatus: 'pending' }).where(eq(users.id, o.id));
    const { result, transactions } = await receive(customer.phone, o.number, 'Hello');
    expect(result).toMatchObject({ outcome: 'received', action: 'reply' });
    expect(transactions).toBe(1);
    expect(await textsTo(customer.id)).toEqual([]);
  });

  it('leaves push on to the transaction: the owner hears of it, and the customer is answered', async () => {
    const { o, customer } = await customerIn({ push: true, status: 'waiting', answeredHoursAgo: null });
    const { transactions } = await receive(customer.phone, o.number, 'Hello');
    expect(transactions).toBe(1);
    expect(await textsTo(customer.id)).toHaveLength(1);
  });
});
