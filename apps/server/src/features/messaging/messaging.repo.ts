import { and, asc, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { customers, inboundEvents, messages, outbox, rateLimits, users } from '../../db/schema.ts';

export type MessageRow = typeof messages.$inferSelect;
export type CustomerRow = typeof customers.$inferSelect;
export type NewMessage = typeof messages.$inferInsert;

export async function findSender(executor: Executor, userId: string) {
  const [user] = await executor
    .select({
      id: users.id,
      businessName: users.businessName,
      plivoNumber: users.plivoNumber,
      plivoNumberStatus: users.plivoNumberStatus,
      plivoNumberError: users.plivoNumberError,
    })
    .from(users)
    .where(eq(users.id, userId));
  return user;
}

export async function findCustomer(executor: Executor, userId: string, customerId: string) {
  const [customer] = await executor
    .select()
    .from(customers)
    .where(and(eq(customers.id, customerId), eq(customers.userId, userId)));
  return customer;
}

/**
 * An inbound text in one statement: records the provider's id (a replay records nothing more), finds the
 * business that owns number `to` and the waitlist entry of phone `from` on it (the live one, else the most
 * recently changed removed one), and stores the text in the conversation. PGlite and PostgreSQL alike.
 */
export async function recordInboundText(
  executor: Executor,
  input: {
    eventId: string;
    from: string;
    to: string;
    body: string;
    segments: number;
    encoding: string;
    providerMessageId: string;
    now: Date;
  },
): Promise<
  | { outcome: 'duplicate' }
  | { outcome: 'unknown_number' }
  | {
      outcome: 'stored';
      messageId: string;
      user: { id: string; businessName: string };
      customer: CustomerRow | undefined;
    }
> {
  const now = input.now.toISOString();
  const result = await executor.execute(sql`
    with event as (
      insert into ${inboundEvents} (id, received_at) values (${input.eventId}, ${now}::timestamptz)
      on conflict (id) do nothing returning id
    ), recipient as (
      select u.id as user_id, u.business_name, c.id as customer_id, to_jsonb(c) as customer
      from ${users} u
      left join ${customers} c on c.user_id = u.id and c.phone = ${input.from}
      where u.plivo_number = ${input.to}
      order by case when c.status <> 'removed' then 0 else 1 end, c.updated_at desc
      limit 1
    ), message as (
      insert into ${messages} (user_id, customer_id, direction, from_number, to_number, body, segments, encoding,
        provider_message_id, status, created_at)
      select recipient.user_id, recipient.customer_id, 'in', ${input.from}, ${input.to}, ${input.body},
        ${input.segments}, ${input.encoding}, ${input.providerMessageId}, 'received', ${now}::timestamptz
      from recipient where exists (select 1 from event)
      returning id
    )
    select (select count(*) from event)::int as fresh, (select id from message) as message_id,
      recipient.user_id, recipient.business_name, recipient.customer
    from (select 1) as one left join recipient on true`);
  const [row] = (
    result as unknown as {
      rows: {
        fresh: number;
        message_id: string | null;
        user_id: string | null;
        business_name: string | null;
        customer: Record<string, unknown> | null;
      }[];
    }
  ).rows;
  if (!row || row.fresh === 0) return { outcome: 'duplicate' };
  if (!row.user_id || !row.message_id) return { outcome: 'unknown_number' };
  return {
    outcome: 'stored',
    messageId: row.message_id,
    user: { id: row.user_id, businessName: row.business_name ?? '' },
    customer: row.customer ? customerFromJson(row.customer) : undefined,
  };
}

const dateOrNull = (value: unknown) =>
  value === null || value === undefined ? null : new Date(String(value));

/** A customers row read through to_jsonb (snake_case keys, timestamps as text) as Drizzle would return it. */
function customerFromJson(json: Record<string, unknown>): CustomerRow {
  return {
    id: json.id as string,
    userId: json.user_id as string,
    name: json.name as string,
    phone: json.phone as string,
    notes: json.notes as string,
    status: json.status as CustomerRow['status'],
    position: json.position as number,
    consentMethod: json.consent_method as CustomerRow['consentMethod'],
    consentedAt: dateOrNull(json.consented_at)!,
    optedOut: json.opted_out as boolean,
    optedOutAt: dateOrNull(json.opted_out_at),
    preferences: (json.preferences ?? []) as CustomerRow['preferences'],
    firstTextSent: json.first_text_sent as boolean,
    createdAt: dateOrNull(json.created_at)!,
    updatedAt: dateOrNull(json.updated_at)!,
  };
}

/** The waitlist entry a phone belongs to: the live one, else the most recently changed removed one. */
export async function findCustomerByPhone(executor: Executor, userId: string, phone: string) {
  const [customer] = await executor
    .select()
    .from(customers)
    .where(and(eq(customers.userId, userId), eq(customers.phone, phone)))
    .orderBy(sql`case when ${customers.status} <> 'removed' then 0 else 1 end`, desc(customers.updatedAt))
    .limit(1);
  return customer;
}

/** Sets first_text_sent; true only for the one caller that flipped it (so the opt-out line is added once). */
export async function claimFirstText(executor: Executor, customerId: string) {
  const flipped = await executor
    .update(customers)
    .set({ firstTextSent: true })
    .where(and(eq(customers.id, customerId), eq(customers.firstTextSent, false)))
    .returning({ id: customers.id });
  return flipped.length > 0;
}

export function setOptedOut(executor: Executor, customerId: string, optedOut: boolean, now: Date) {
  return executor
    .update(customers)
    .set({ optedOut, optedOutAt: optedOut ? now : null, updatedAt: now })
    .where(eq(customers.id, customerId));
}

export async function insertMessage(executor: Executor, values: NewMessage) {
  const [row] = await executor.insert(messages).values(values).returning();
  return row!;
}

export async function findMessage(executor: Executor, id: string) {
  const [row] = await executor.select().from(messages).where(eq(messages.id, id));
  return row;
}

export async function findMessageByProviderId(executor: Executor, providerMessageId: string) {
  const [row] = await executor
    .select()
    .from(messages)
    .where(eq(messages.providerMessageId, providerMessageId));
  return row;
}

/** Marks a queued message handed over; false when it was no longer queued (someone else sent it). */
export async function markMessageSent(
  executor: Executor,
  id: string,
  result: { providerMessageId: string; status: 'sent' | 'delivered' },
  now: Date,
) {
  const updated = await executor
    .update(messages)
    .set({
      providerMessageId: result.providerMessageId,
      status: result.status,
      sentAt: now,
      deliveredAt: result.status === 'delivered' ? now : null,
      error: null,
    })
    .where(and(eq(messages.id, id), eq(messages.status, 'queued')))
    .returning({ id: messages.id });
  return updated.length > 0;
}

export function markMessageFailed(executor: Executor, id: string, error: string) {
  return executor
    .update(messages)
    .set({ status: 'failed', error })
    .where(and(eq(messages.id, id), eq(messages.status, 'queued')));
}

export function updateMessageStatus(
  executor: Executor,
  id: string,
  values: Partial<Pick<MessageRow, 'status' | 'error' | 'deliveredAt' | 'providerMessageId' | 'sentAt'>>,
) {
  return executor.update(messages).set(values).where(eq(messages.id, id));
}

/** Records a webhook event id; false when it was already recorded (a replay). */
export async function recordInboundEvent(executor: Executor, id: string, now: Date) {
  const inserted = await executor
    .insert(inboundEvents)
    .values({ id, receivedAt: now })
    .onConflictDoNothing({ target: inboundEvents.id })
    .returning({ id: inboundEvents.id });
  return inserted.length > 0;
}

export function setPhoneNumber(
  executor: Executor,
  userId: string,
  values: {
    plivoNumber?: string | null;
    plivoNumberStatus: 'pending' | 'verified' | 'failed' | null;
    plivoNumberError: string | null;
  },
  now: Date,
) {
  return executor
    .update(users)
    .set({ ...values, updatedAt: now })
    .where(eq(users.id, userId));
}

// ---- the per-account send rate: one row per account in rate_limits, `expire` = when the next send may go ----

const sendGateKey = (userId: string) => `sms-send:${userId}`;

/**
 * Takes the account's send slot if it is free at `now`, in one statement, so several workers never send for
 * one account at once. The slot is held for `leaseMs` (a send in flight); `releaseSendSlot` then frees it one
 * interval after the provider answered, so the provider sees two texts of one account at least one interval
 * apart, whatever the network latency. Returns null when taken, else when the slot should be free.
 */
export async function takeSendSlot(
  executor: Executor,
  userId: string,
  now: Date,
  intervalMs: number,
  leaseMs: number,
): Promise<{ freeAt: Date } | null> {
  const lease = new Date(now.getTime() + leaseMs);
  const taken = await executor
    .insert(rateLimits)
    .values({ key: sendGateKey(userId), points: 0, expire: lease })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: { expire: lease },
      setWhere: sql`${rateLimits.expire} is null or ${rateLimits.expire} <= ${now.toISOString()}::timestamptz`,
    })
    .returning({ key: rateLimits.key });
  if (taken.length > 0) return null;
  const [row] = await executor
    .select({ expire: rateLimits.expire })
    .from(rateLimits)
    .where(eq(rateLimits.key, sendGateKey(userId)));
  const expire = row?.expire?.getTime() ?? now.getTime();
  // Further away than one interval: another worker's send is in flight; look again one interval later.
  return { freeAt: new Date(Math.min(expire, now.getTime() + intervalMs)) };
}

export function releaseSendSlot(executor: Executor, userId: string, freeAt: Date) {
  return executor
    .update(rateLimits)
    .set({ expire: freeAt })
    .where(eq(rateLimits.key, sendGateKey(userId)));
}

/** A queued text with what its delivery checks: the sender's number now, and whether the customer opted out. */
export async function loadTextToSend(executor: Executor, messageId: string) {
  const [row] = await executor
    .select({
      message: messages,
      senderNumber: users.plivoNumber,
      senderStatus: users.plivoNumberStatus,
      customerOptedOut: customers.optedOut,
    })
    .from(messages)
    .innerJoin(users, eq(users.id, messages.userId))
    .leftJoin(customers, eq(customers.id, messages.customerId))
    .where(eq(messages.id, messageId));
  return row;
}

/**
 * After the provider took the text, in one statement: the message is marked handed over, the account's slot
 * frees one interval later, and the outbox row is done. False when the message was no longer queued.
 */
export async function settleSentText(
  executor: Executor,
  input: {
    messageId: string;
    outboxId: string;
    userId: string;
    providerMessageId: string;
    status: 'sent' | 'delivered';
    now: Date;
    /** Null: leave the account's send slot alone (no send was made now). */
    slotFreeAt: Date | null;
  },
) {
  const now = input.now.toISOString();
  const result = await executor.execute(sql`
    with marked as (
      update ${messages} set provider_message_id = ${input.providerMessageId}, status = ${input.status},
        sent_at = ${now}::timestamptz,
        delivered_at = ${input.status === 'delivered' ? now : null}::timestamptz, error = null
      where id = ${input.messageId} and status = 'queued' returning id
    ), slot as (
      update ${rateLimits} set expire = ${input.slotFreeAt?.toISOString() ?? null}::timestamptz
      where key = ${sendGateKey(input.userId)} and ${input.slotFreeAt !== null}::boolean returning key
    ), done as (
      update ${outbox} set status = 'sent', sent_at = ${now}::timestamptz, last_error = null
      where id = ${input.outboxId} returning id
    )
    select (select count(*) from marked)::int as marked, (select count(*) from slot)::int as slot,
      (select count(*) from done)::int as done`);
  const rows = (result as unknown as { rows: { marked: number }[] }).rows;
  return rows[0]?.marked === 1;
}

/**
 * The happy path of enqueueSms in one statement: flags the customer's first text (reporting whether it was
 * the first) only while the sender's number is verified and the customer may be texted. No row: refused or
 * not found (the caller finds out which).
 */
export async function claimCustomerForText(
  executor: Executor,
  input: { userId: string; customerId: string; allowOptedOut: boolean },
) {
  const result = await executor.execute(sql`
    update ${customers} c set first_text_sent = true
    from (select id, first_text_sent as was from ${customers}
          where id = ${input.customerId} and user_id = ${input.userId} for update) o
    where c.id = o.id
      and (not c.opted_out or ${input.allowOptedOut})
      and exists (select 1 from ${users} u where u.id = ${input.userId}
                  and u.plivo_number_status = 'verified' and u.plivo_number is not null)
    returning c.id, c.phone, o.was as "wasFirstTextSent"`);
  const rows = (result as unknown as { rows: { id: string; phone: string; wasFirstTextSent: boolean }[] })
    .rows;
  return rows[0];
}

/** Inserts the queued text and its outbox row in one statement, the sender's number read in it. */
export async function insertQueuedText(
  executor: Executor,
  input: {
    id: string;
    userId: string;
    customerId: string | null;
    openingId: string | null;
    to: string;
    body: string;
    segments: number;
    encoding: string;
    now: Date;
    payload: object;
  },
) {
  const now = input.now.toISOString();
  const result = await executor.execute(sql`
    with sender as (
      select plivo_number from ${users}
      where id = ${input.userId} and plivo_number_status = 'verified' and plivo_number is not null
    ), message as (
      insert into ${messages} (id, user_id, customer_id, opening_id, direction, from_number, to_number, body,
        segments, encoding, status, created_at)
      select ${input.id}, ${input.userId}, ${input.customerId}, ${input.openingId}, 'out', sender.plivo_number,
        ${input.to}, ${input.body}, ${input.segments}, ${input.encoding}, 'queued', ${now}::timestamptz
      from sender returning id
    )
    insert into ${outbox} (kind, payload, next_attempt_at, created_at)
    select 'sms', ${JSON.stringify(input.payload)}::jsonb, ${now}::timestamptz, clock_timestamp() from message
    returning id`);
  return (result as unknown as { rows: unknown[] }).rows.length === 1;
}

// ---- the local phone (/dev/phone) ----

/** Numbers that received a text, newest conversation first. */
export function phonesThatReceivedTexts(executor: Executor) {
  return executor
    .select({
      number: messages.toNumber,
      lastAt: sql<Date>`max(${messages.createdAt})`.mapWith((v) => new Date(v)),
    })
    .from(messages)
    .where(eq(messages.direction, 'out'))
    .groupBy(messages.toNumber)
    .orderBy(desc(sql`max(${messages.createdAt})`))
    .limit(200);
}

/** Every text to or from a phone, oldest first. */
export function threadOf(executor: Executor, phone: string) {
  return executor
    .select()
    .from(messages)
    .where(
      or(
        and(eq(messages.direction, 'out'), eq(messages.toNumber, phone)),
        and(eq(messages.direction, 'in'), eq(messages.fromNumber, phone)),
      ),
    )
    .orderBy(asc(messages.createdAt), asc(messages.direction));
}

/** Committed before the provider call: from here until an answer is stored, the outcome is unknown. */
export function markSendStarted(executor: Executor, id: string, at: Date | null) {
  return executor
    .update(messages)
    .set({ sendStartedAt: at })
    .where(and(eq(messages.id, id), eq(messages.status, 'queued')));
}

/** Which of these provider message ids already belong to one of our texts. */
export async function knownProviderMessageIds(executor: Executor, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await executor
    .select({ id: messages.providerMessageId })
    .from(messages)
    .where(inArray(messages.providerMessageId, ids));
  return new Set(rows.map((row) => row.id!));
}
