import type { Message } from '@waitlist/contract';
import { and, asc, desc, eq, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { CustomerRow, MessageRow } from '../../db/rows.ts';
import { customers, inboundEvents, messages, users } from '../../db/schema.ts';

/**
 * The one home of the `messages` and `inbound_events` tables (decision 0008). Customers are changed by
 * features/waitlist's repo and the outbox by its own module; some statements here read those tables (a join
 * or a condition), none writes them; the business's number is set (and read on its own) through features/auth's repo.
 */
export type { MessageRow };
export type NewMessage = typeof messages.$inferInsert;

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function messageDto(row: MessageRow): Message {
  return {
    id: row.id,
    customerId: row.customerId,
    openingId: row.openingId,
    direction: row.direction,
    fromNumber: row.fromNumber,
    toNumber: row.toNumber,
    body: row.body,
    segments: row.segments,
    encoding: row.encoding,
    status: row.status,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    sentAt: iso(row.sentAt),
    deliveredAt: iso(row.deliveredAt),
  };
}

/** A customer's conversation, oldest first. */
export function conversation(executor: Executor, userId: string, customerId: string) {
  return executor
    .select()
    .from(messages)
    .where(and(eq(messages.userId, userId), eq(messages.customerId, customerId)))
    .orderBy(asc(messages.createdAt), asc(messages.seq));
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
    /** Keywords and claims are stored read: the inbox counts only replies the owner should read. */
    read: boolean;
  },
): Promise<
  | { outcome: 'duplicate' }
  | { outcome: 'unknown_number' }
  | {
      outcome: 'stored';
      messageId: string;
      /** The business the text was sent to: what a reply handler needs to answer, read in the same statement. */
      user: { id: string; businessName: string; timeZone: string; pushEnabled: boolean };
      customer: CustomerRow | undefined;
    }
> {
  const now = input.now.toISOString();
  const result = await executor.execute(sql`
    with event as (
      insert into ${inboundEvents} (id, received_at) values (${input.eventId}, ${now}::timestamptz)
      on conflict (id) do nothing returning id
    ), recipient as (
      select u.id as user_id, u.business_name, u.time_zone, u.push_notifications_enabled, c.id as customer_id, to_jsonb(c) as customer
      from ${users} u
      left join ${customers} c on c.user_id = u.id and c.phone = ${input.from}
      where u.plivo_number = ${input.to}
      order by case when c.status <> 'removed' then 0 else 1 end, c.updated_at desc
      limit 1
    ), message as (
      insert into ${messages} (user_id, customer_id, direction, from_number, to_number, body, segments, encoding,
        provider_message_id, status, created_at, read_at)
      select recipient.user_id, recipient.customer_id, 'in', ${input.from}, ${input.to}, ${input.body},
        ${input.segments}, ${input.encoding}, ${input.providerMessageId}, 'received', ${now}::timestamptz,
        ${input.read ? sql`${now}::timestamptz` : sql`null`}
      from recipient where exists (select 1 from event)
      returning id
    )
    select (select count(*) from event)::int as fresh, (select id from message) as message_id,
      recipient.user_id, recipient.business_name, recipient.time_zone,
      recipient.push_notifications_enabled, recipient.customer
    from (select 1) as one left join recipient on true`);
  const [row] = (
    result as unknown as {
      rows: {
        fresh: number;
        message_id: string | null;
        user_id: string | null;
        business_name: string | null;
        time_zone: string | null;
        push_notifications_enabled: boolean | null;
        customer: Record<string, unknown> | null;
      }[];
    }
  ).rows;
  if (!row || row.fresh === 0) return { outcome: 'duplicate' };
  if (!row.user_id || !row.message_id) return { outcome: 'unknown_number' };
  return {
    outcome: 'stored',
    messageId: row.message_id,
    user: {
      id: row.user_id,
      businessName: row.business_name ?? '',
      timeZone: row.time_zone ?? 'UTC',
      pushEnabled: row.push_notifications_enabled === true,
    },
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
    autoAnsweredAt: dateOrNull(json.auto_answered_at),
    createdAt: dateOrNull(json.created_at)!,
    updatedAt: dateOrNull(json.updated_at)!,
  };
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
 * Inserts one business's queued texts in one statement, in the order given, the sender's number read in the
 * same statement; inserts none (and answers false) when the number is not verified.
 */
export async function insertQueuedTexts(
  executor: Executor,
  input: {
    userId: string;
    now: Date;
    texts: {
      id: string;
      customerId: string | null;
      openingId: string | null;
      to: string;
      body: string;
      segments: number;
      encoding: string;
    }[];
  },
) {
  if (input.texts.length === 0) return true;
  const rows = sql.join(
    input.texts.map(
      (text, index) =>
        sql`(${index}, ${text.id}::uuid, ${text.customerId}::uuid, ${text.openingId}::uuid, ${text.to}, ${text.body}, ${text.segments}::int, ${text.encoding})`,
    ),
    sql`, `,
  );
  const result = await executor.execute(sql`
    with sender as (
      select plivo_number from ${users}
      where id = ${input.userId} and plivo_number_status = 'verified' and plivo_number is not null
    ), message as (
      insert into ${messages} (id, user_id, customer_id, opening_id, direction, from_number, to_number, body,
        segments, encoding, status, created_at)
      select t.id, ${input.userId}, t.customer_id, t.opening_id, 'out', sender.plivo_number,
        t.to_number, t.body, t.segments, t.encoding, 'queued', ${input.now.toISOString()}::timestamptz
      from sender, (values ${rows}) as t(position, id, customer_id, opening_id, to_number, body, segments, encoding)
      order by t.position
      returning id
    )
    select count(*)::int as inserted from message`);
  const [row] = (result as unknown as { rows: { inserted: number }[] }).rows;
  return (row?.inserted ?? 0) === input.texts.length;
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
  return new Set(rows.map((row) => row.id as string));
}

// ---- the inbox (issue 15) ----

export interface ConversationSummary {
  customerId: string;
  lastBody: string;
  lastDirection: 'in' | 'out';
  lastAt: Date;
  /** The last message's insertion order: the inbox's cursor. */
  lastSeq: number;
  unread: number;
}

/**
 * The business's conversations with customers who have replied at least once, newest activity first:
 * each one's last text and unread replies. `before` is a cursor (a last message's seq).
 */
export async function conversationsOf(
  executor: Executor,
  userId: string,
  page: { limit: number; before?: number },
): Promise<ConversationSummary[]> {
  const result = await executor.execute(sql`
    with last as (
      select distinct on (customer_id) customer_id, body, direction, created_at, seq
      from ${messages}
      where user_id = ${userId} and customer_id is not null
      order by customer_id, seq desc
    )
    select last.customer_id, last.body, last.direction, last.created_at, last.seq,
      (select count(*)::int from ${messages} u
        where u.user_id = ${userId} and u.customer_id = last.customer_id
          and u.direction = 'in' and u.read_at is null) as unread
    from last
    where exists (select 1 from ${messages} r
        where r.user_id = ${userId} and r.customer_id = last.customer_id and r.direction = 'in')
      ${page.before === undefined ? sql`` : sql`and last.seq < ${page.before}`}
    order by last.seq desc
    limit ${page.limit}`);
  return (
    result as unknown as {
      rows: {
        customer_id: string;
        body: string;
        direction: 'in' | 'out';
        created_at: string | Date;
        seq: number | string;
        unread: number;
      }[];
    }
  ).rows.map((row) => ({
    customerId: row.customer_id,
    lastBody: row.body,
    lastDirection: row.direction,
    lastAt: new Date(row.created_at),
    lastSeq: Number(row.seq),
    unread: Number(row.unread),
  }));
}

/** The business's unread replies (the inbox badge). */
export async function unreadReplies(executor: Executor, userId: string): Promise<number> {
  const [row] = await executor
    .select({ count: sql<number>`count(*)::int` })
    .from(messages)
    .where(and(eq(messages.userId, userId), eq(messages.direction, 'in'), isNull(messages.readAt)));
  return Number(row?.count ?? 0);
}

/** Marks a customer's replies read. */
export async function markConversationRead(
  executor: Executor,
  userId: string,
  customerId: string,
  now: Date,
) {
  await executor
    .update(messages)
    .set({ readAt: now })
    .where(
      and(
        eq(messages.userId, userId),
        eq(messages.customerId, customerId),
        eq(messages.direction, 'in'),
        isNull(messages.readAt),
      ),
    );
}

/** The dashboard's texts in [lo, hi): sent (whatever became of them) and delivered (messages_user_idx). */
export async function textTotals(executor: Executor, range: { userId: string; lo: Date; hi: Date }) {
  const [row] = await executor
    .select({
      textsSent: sql<number>`count(*) filter (where ${messages.status} in ('sent', 'delivered', 'undelivered'))::int`,
      textsDelivered: sql<number>`count(*) filter (where ${messages.status} = 'delivered')::int`,
    })
    .from(messages)
    .where(
      and(
        eq(messages.userId, range.userId),
        eq(messages.direction, 'out'),
        gte(messages.createdAt, range.lo),
        lt(messages.createdAt, range.hi),
      ),
    );
  return { textsSent: Number(row?.textsSent ?? 0), textsDelivered: Number(row?.textsDelivered ?? 0) };
}
