import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { customers, messages, outbox, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { writeReplyVerdict } from '../waitlist/customer-changes.repo.ts';
import { addCustomer, call, owner } from '../waitlist/waitlist.test-helpers.ts';

/**
 * The one-statement way (decision 0013): a reply is stored without a transaction only when the customer's
 * stored verdict (written by the reply policy) says nothing follows, or only the automatic answer. The
 * statement decides nothing; these hold what it does with a verdict, and that a verdict never outlives the
 * state it was decided from.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

let phone = 900;

/** Counts the transactions receiveInbound opens: the one-statement way opens none. */
async function receive(from: string, to: string, text: string, providerMessageId = `in-${randomUUID()}`) {
  const transactions = vi.spyOn(t.database.db, 'transaction');
  try {
    const result = await t.app.services.conversation.receiveInbound({ from, to, text, providerMessageId });
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
    .select({ payload: outbox.payload, kind: outbox.kind })
    .from(outbox)
    .where(
      inArray(
        sql`${outbox.payload}->>'messageId'`,
        rows.map((row) => row.id),
      ),
    );
  return rows.map((row) => ({
    body: row.body,
    segments: row.segments,
    encoding: row.encoding,
    status: row.status,
    outbox: queued
      .filter((q) => (q.payload as { messageId: string }).messageId === row.id)
      .map((q) => q.kind),
  }));
}

const customerRow = async (id: string) => {
  const [row] = await t.database.db.select().from(customers).where(eq(customers.id, id));
  return row!;
};

/** A business and customers of it, push off. */
async function business(names: string[], businessName = 'Sunny Cuts') {
  const o = await owner(t, { plan: 'growth' });
  await t.database.db.update(users).set({ businessName }).where(eq(users.id, o.id));
  const list = [];
  for (const name of names) {
    phone += 1;
    list.push(await addCustomer(t, o.token, phone, { name }));
  }
  return { o, customers: list };
}

/** What the policy writes for a customer told a slot was filled, never answered: a YES is quiet, text answered. */
const answerVerdict = (id: string) =>
  t.database.db
    .update(customers)
    .set({ replyOnClaim: 'quiet', replyOnText: 'answer', replyTextUntil: null, replyPush: false })
    .where(eq(customers.id, id));

describe('a reply whose verdict is quiet', () => {
  it('is stored in one statement once the first reply wrote the verdict; nothing more is sent', async () => {
    const {
      o,
      customers: [ann],
    } = await business(['Ann Lee']);
    // The first reply has no verdict yet: the transaction decides (the automatic answer) and writes one.
    const first = await receive(ann!.phone, o.number, 'Hi, any slots Friday?');
    expect(first).toMatchObject({ result: { outcome: 'received', action: 'reply' }, transactions: 1 });
    expect(await customerRow(ann!.id)).toMatchObject({ replyOnText: 'quiet', replyPush: false });
    const second = await receive(ann!.phone, o.number, 'Thanks!');
    expect(second).toMatchObject({ result: { outcome: 'received', action: 'reply' }, transactions: 0 });
    expect(await textsTo(ann!.id)).toHaveLength(1);
  });

  it('no longer holds once the owner turns push on: the transaction tells the owner', async () => {
    const {
      o,
      customers: [ann],
    } = await business(['Ann Lee']);
    await receive(ann!.phone, o.number, 'Hi');
    await t.database.db.update(users).set({ pushNotificationsEnabled: true }).where(eq(users.id, o.id));
    expect((await receive(ann!.phone, o.number, 'Hello?')).transactions).toBe(1);
  });

  it('is forgotten when the status changes: a YES to a new slot claims it', async () => {
    const {
      o,
      customers: [ann],
    } = await business(['Ann Lee']);
    // Waiting, never offered: the verdict says a YES changes nothing.
    await receive(ann!.phone, o.number, 'Hi');
    expect(await customerRow(ann!.id)).toMatchObject({ replyOnClaim: 'quiet' });
    const opened = await call(t, o.token, 'POST', '/openings', {
      startsAt: new Date(t.clock.now().getTime() + 3 * 3_600_000).toISOString(),
      durationMinutes: 45,
      service: 'Cut',
      mode: 'all',
    });
    expect(opened.statusCode).toBe(201);
    // Offered: the status changed, the trigger forgot the verdict.
    expect(await customerRow(ann!.id)).toMatchObject({
      status: 'offered',
      replyOnClaim: null,
      replyOnText: null,
    });
    const yes = await receive(ann!.phone, o.number, 'YES');
    expect(yes.transactions).toBe(1);
    expect(await customerRow(ann!.id)).toMatchObject({ status: 'booked', replyOnClaim: 'quiet' });
  });

  it('is written by a won claim for everyone it told: their late YES is stored in one statement', async () => {
    const {
      o,
      customers: [ann, bob],
    } = await business(['Ann Lee', 'Bob Stone']);
    const opened = await call(t, o.token, 'POST', '/openings', {
      startsAt: new Date(t.clock.now().getTime() + 3 * 3_600_000).toISOString(),
      durationMinutes: 45,
      service: 'Cut',
      mode: 'all',
    });
    expect(opened.statusCode).toBe(201);
    expect((await receive(ann!.phone, o.number, 'YES')).transactions).toBe(1);
    // Bob was told it is taken and freed by Ann's claim, which wrote what his next reply does.
    expect(await customerRow(bob!.id)).toMatchObject({
      status: 'waiting',
      replyOnClaim: 'quiet',
      replyOnText: 'answer',
    });
    const late = await receive(bob!.phone, o.number, 'Yes please');
    expect(late).toMatchObject({ result: { outcome: 'received', action: 'reply' }, transactions: 0 });
    const texts = (await textsTo(bob!.id)).map((text) => text.body);
    expect(texts).toHaveLength(2); // the alert and "sorry, it's been filled", nothing more
    expect(await customerRow(bob!.id)).toMatchObject({ status: 'waiting' });
  });

  it('is written only while the row holds what it was decided from', async () => {
    const {
      customers: [ann],
    } = await business(['Ann Lee']);
    const row = await customerRow(ann!.id);
    const verdict = { onClaim: 'quiet', onText: 'quiet', textUntil: null, push: false } as const;
    await writeReplyVerdict(t.database.db, ann!.id, { ...row, status: 'offered' }, verdict);
    expect(await customerRow(ann!.id)).toMatchObject({ replyOnClaim: null });
    await writeReplyVerdict(t.database.db, ann!.id, { ...row, autoAnsweredAt: t.clock.now() }, verdict);
    expect(await customerRow(ann!.id)).toMatchObject({ replyOnClaim: null });
    await writeReplyVerdict(t.database.db, ann!.id, row, verdict);
    expect(await customerRow(ann!.id)).toMatchObject({ replyOnClaim: 'quiet' });
  });
});

describe('a reply whose verdict is the automatic answer', () => {
  it.each([
    { case: 'a first text, with the opt-out footer', businessName: 'Sunny Cuts', texted: false },
    { case: 'a customer texted before', businessName: 'Sunny Cuts', texted: true },
    { case: 'a business with no name yet', businessName: '', texted: false },
    { case: 'a name outside GSM-7 (sent as UCS-2)', businessName: 'Café Ōsaka ✂', texted: true },
  ])('$case: queues in one statement what the transaction queues', async ({ businessName, texted }) => {
    const {
      o,
      customers: [ann, bob],
    } = await business(['Ann Lee', 'Bob Stone'], businessName);
    await t.database.db
      .update(customers)
      .set({ firstTextSent: texted })
      .where(inArray(customers.id, [ann!.id, bob!.id]));
    // Ann's verdict says "answer"; Bob, in the same state, has none, so his reply takes the transaction.
    await answerVerdict(ann!.id);
    const byStatement = await receive(ann!.phone, o.number, 'Running 5 min late');
    const byTransaction = await receive(bob!.phone, o.number, 'Running 5 min late');
    expect(byStatement).toMatchObject({ result: { outcome: 'received', action: 'reply' }, transactions: 0 });
    expect(byTransaction).toMatchObject({
      result: { outcome: 'received', action: 'reply' },
      transactions: 1,
    });
    const [annTexts, bobTexts] = [await textsTo(ann!.id), await textsTo(bob!.id)];
    expect(annTexts).toHaveLength(1);
    expect(annTexts).toEqual(bobTexts);
    expect(annTexts[0]).toMatchObject({ status: 'queued', outbox: ['sms'] });
    expect(annTexts[0]!.body.startsWith(`${businessName || 'Your business'}: Thanks for your message!`)).toBe(
      true,
    );
    expect(annTexts[0]!.body.includes('STOP')).toBe(!texted);
    expect(annTexts[0]!.encoding).toBe(businessName.includes('✂') ? 'UCS-2' : 'GSM-7');
    const [annRow, bobRow] = [await customerRow(ann!.id), await customerRow(bob!.id)];
    expect(annRow).toMatchObject({
      autoAnsweredAt: t.clock.now(),
      firstTextSent: true,
      replyOnText: 'quiet',
    });
    expect(bobRow).toMatchObject({
      autoAnsweredAt: t.clock.now(),
      firstTextSent: true,
      replyOnText: 'quiet',
    });
    expect(annRow.replyTextUntil).toEqual(bobRow.replyTextUntil);
  });

  it('stores the reply before its answer, unread, and a replay stores and answers nothing more', async () => {
    const {
      o,
      customers: [ann],
    } = await business(['Ann Lee']);
    await answerVerdict(ann!.id);
    const first = await receive(ann!.phone, o.number, 'Can I bring my son?', 'answer-replay');
    expect(first).toMatchObject({ result: { outcome: 'received' }, transactions: 0 });
    expect(await receive(ann!.phone, o.number, 'Can I bring my son?', 'answer-replay')).toEqual({
      result: { outcome: 'duplicate' },
      transactions: 0,
    });
    const thread = await t.database.db
      .select({ direction: messages.direction, readAt: messages.readAt, body: messages.body })
      .from(messages)
      .where(eq(messages.customerId, ann!.id))
      .orderBy(messages.createdAt, messages.seq);
    expect(thread.map((m) => m.direction)).toEqual(['in', 'out']);
    expect(thread[0]).toMatchObject({ body: 'Can I bring my son?', readAt: null });
    // The next reply within 24 hours is quiet: no second answer, still no transaction.
    expect((await receive(ann!.phone, o.number, 'Never mind')).transactions).toBe(0);
    expect(await textsTo(ann!.id)).toHaveLength(1);
  });

  it('answers replies that race only once', async () => {
    const {
      o,
      customers: [ann],
    } = await business(['Ann Lee']);
    await answerVerdict(ann!.id);
    const texts = ['Hello?', 'Anyone there?', 'Hi'];
    // The customer's row held by another transaction: on PostgreSQL every reply waits at the answer's claim,
    // so all three race for it when the row is let go (PGlite runs them one after another).
    let racing: Promise<Awaited<ReturnType<typeof receive>>[]> | undefined;
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`select id from ${customers} where id = ${ann!.id} for update`);
      racing = Promise.all(texts.map((text) => receive(ann!.phone, o.number, text)));
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
    expect(await textsTo(ann!.id)).toHaveLength(1);
  });

  it('uses the business name the owner just changed', async () => {
    const {
      o,
      customers: [ann, bob],
    } = await business(['Ann Lee', 'Bob Stone'], 'Old Name');
    await answerVerdict(ann!.id);
    await answerVerdict(bob!.id);
    await receive(ann!.phone, o.number, 'Hi');
    await t.database.db.update(users).set({ businessName: 'New Name' }).where(eq(users.id, o.id));
    expect((await receive(bob!.phone, o.number, 'Hi')).transactions).toBe(0);
    expect((await textsTo(ann!.id))[0]!.body).toMatch(/^Old Name: /);
    expect((await textsTo(bob!.id))[0]!.body).toMatch(/^New Name: /);
  });

  it('leaves a number that cannot text to the transaction, which sends nothing', async () => {
    const {
      o,
      customers: [ann],
    } = await business(['Ann Lee']);
    await answerVerdict(ann!.id);
    await t.database.db.update(users).set({ plivoNumberStatus: 'pending' }).where(eq(users.id, o.id));
    const { result, transactions } = await receive(ann!.phone, o.number, 'Hello');
    expect(result).toMatchObject({ outcome: 'received', action: 'reply' });
    expect(transactions).toBe(1);
    expect(await textsTo(ann!.id)).toEqual([]);
  });
});
