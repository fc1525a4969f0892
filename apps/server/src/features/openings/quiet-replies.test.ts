import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, messages, outbox, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { receiveText } from '../messaging/messaging.test-helpers.ts';
import { addCustomer, owner } from '../waitlist/waitlist.test-helpers.ts';

/**
 * Issue 16: a free-text reply that asks nothing of anyone is stored in one statement, the database deciding
 * by `quietReply`, openings' free-text rule written in SQL. These hold the SQL to the rule it mirrors: whenever
 * it says quiet, onCustomerReply does nothing; where an answer is due, it does not say quiet.
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

async function saysQuiet(customerId: string) {
  const now = t.clock.now().toISOString();
  const condition = t.app.services.openings.quietReply(sql`u`, sql`c`, sql`${now}::timestamptz`);
  const result = await t.database.db.execute(
    sql`select ${condition} as quiet from ${users} u join ${customers} c on c.user_id = u.id where c.id = ${customerId}`,
  );
  return (result as unknown as { rows: { quiet: boolean }[] }).rows[0]!.quiet;
}

/** Runs onCustomerReply's free-text branch as the inbound transaction would: did it write anything? */
async function handlerWrites(userId: string, customerId: string) {
  const outboxBefore = (await t.database.db.select({ n: count() }).from(outbox))[0]!.n;
  const [before] = await t.database.db.select().from(customers).where(eq(customers.id, customerId));
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
      customer: before!,
      body: 'Thanks!',
      now: t.clock.now(),
    }),
  );
  const outboxAfter = (await t.database.db.select({ n: count() }).from(outbox))[0]!.n;
  const [after] = await t.database.db.select().from(customers).where(eq(customers.id, customerId));
  return (
    outboxAfter !== outboxBefore || after!.autoAnsweredAt?.getTime() !== before!.autoAnsweredAt?.getTime()
  );
}

describe('quietReply, the free-text rule in SQL', () => {
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
    // Quiet means the handler does nothing. (Push on is never quiet: it writes when the owner has a device.)
    const writes = await handlerWrites(o.id, customer.id);
    if (state.quiet) expect(writes).toBe(false);
    else if (!state.push) expect(writes).toBe(true);
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

  it('that is not quiet after all (an answer is due) takes the transaction and gets its answer', async () => {
    const { o, customer } = await customerIn({ push: false, status: 'waiting', answeredHoursAgo: null });
    const result = await receiveText(t, customer.phone, o.number, 'Thanks!');
    expect(result).toMatchObject({ outcome: 'received', action: 'reply' });
    const [row] = await t.database.db.select().from(customers).where(eq(customers.id, customer.id));
    expect(row!.autoAnsweredAt).not.toBeNull();
  });
});
