import { type Locale, type Message, smsInfo, spanishTextAsSent, textAsSent } from '@waitlist/contract';
import { and, asc, desc, eq, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { MessageRow } from '../../db/rows.ts';
import { inboundEvents, messages } from '../../db/schema.ts';

/**
 * The one home of the `messages` and `inbound_events` tables (decision 0008). Customers are changed by
 * features/waitlist's repo and the outbox by its own module; some statements here read those tables (a join
 * or a condition), none writes them; the business's number is set (and read on its own) through features/auth's repo.
 */
export type { MessageRow };
export type NewMessage = typeof messages.$inferInsert;

const iso = (date: Date | null) => (date ? date.toISOString() : null);
/** A timestamp read outside Drizzle: a Date (node-postgres, PGlite) or its text (inside JSON). */
const _dateOrNull = (value: unknown) =>
  value === null || value === undefined ? null : value instanceof Date ? value : new Date(String(value));
/** A value given when a prepared statement runs (db/client.ts preparedRows). */
const _p = (name: string) => sql.placeholder(name);

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
 * A text as it is queued: the opt-out footer on a customer's first text, and the segments and encoding of
 * the result (every writer of outbound texts, so they cannot differ).
 */
export function queuedText(
  body: string,
  options: { firstText: boolean; locale?: Locale; plainLetters?: boolean },
) {
  // A Spanish text of a business that chose plain letters (issue 28) goes without á í ó ú, footer and all.
  const written = textAsSent(body, options);
  const sent = options.locale === 'es' ? spanishTextAsSent(written, options.plainLetters === true) : written;
  const info = smsInfo(sent);
  return { body: sent, segments: info.segments, encoding: info.encoding };
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

// ---- the inbox (issue 15) ----

export interface ConversationSummary {
  customerId: string;
  lastBody: string;
  lastDirection: 'in' | 'out';
  lastAt: Date;
  /** The last message's insertion order: the inbox's cursor. */
  lastSeq: number;
  unread: number;
  /** The customer's own last text (the list's preview, issue 27), whoever wrote last. */
  lastReply: { body: string; at: Date } | null;
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
  // One read of the business's texts (issue 30): each conversation's last text, last reply and unread count
  // come from it, instead of re-reading them per customer (23,000 pages for a 5,500-text business).
  const result = await executor.execute(sql`
    with mine as materialized (
      select customer_id, body, direction, created_at, seq, read_at
      from ${messages}
      where user_id = ${userId} and customer_id is not null
    ), conversation as (
      select customer_id, max(seq) as last_seq, max(seq) filter (where direction = 'in') as reply_seq,
        count(*) filter (where direction = 'in' and read_at is null)::int as unread
      from mine
      group by customer_id
      having bool_or(direction = 'in')
    )
    select last.customer_id, last.body, last.direction, last.created_at, last.seq, conversation.unread,
      reply.body as reply_body, reply.created_at as reply_at
    from conversation
    join mine last on last.customer_id = conversation.customer_id and last.seq = conversation.last_seq
    join mine reply on reply.customer_id = conversation.customer_id and reply.seq = conversation.reply_seq
    ${page.before === undefined ? sql`` : sql`where conversation.last_seq < ${page.before}`}
    order by conversation.last_seq desc
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
        reply_body: string | null;
        reply_at: string | Date | null;
      }[];
    }
  ).rows.map((row) => ({
    customerId: row.customer_id,
    lastBody: row.body,
    lastDirection: row.direction,
    lastAt: new Date(row.created_at),
    lastSeq: Number(row.seq),
    unread: Number(row.unread),
    lastReply:
      row.reply_body === null || row.reply_at === null
        ? null
        : { body: row.reply_body, at: new Date(row.reply_at) },
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

/**
 * The texts these customers sent the business since `since`, newest first (the opening's "Asked: …" line;
 * messages_customer_idx). At most 50 a customer is more than an opening's row ever shows.
 */
export function customerRepliesSince(executor: Executor, userId: string, customerIds: string[], since: Date) {
  return executor
    .select({ customerId: messages.customerId, body: messages.body, createdAt: messages.createdAt })
    .from(messages)
    .where(
      and(
        eq(messages.userId, userId),
        eq(messages.direction, 'in'),
        inArray(messages.customerId, customerIds),
        gte(messages.createdAt, since),
      ),
    )
    .orderBy(desc(messages.createdAt))
    .limit(50 * customerIds.length);
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

/**
 * The dashboard's texts in [lo, hi): sent (whatever became of them), delivered, and the segments sent, which a
 * plan's texts included count (issue 39) (messages_user_idx).
 */
export async function textTotals(executor: Executor, range: { userId: string; lo: Date; hi: Date }) {
  const [row] = await executor
    .select({
      textsSent: sql<number>`count(*) filter (where ${messages.status} in ('sent', 'delivered', 'undelivered'))::int`,
      textsDelivered: sql<number>`count(*) filter (where ${messages.status} = 'delivered')::int`,
      segmentsSent: sql<number>`coalesce(sum(${messages.segments}) filter (where ${messages.status} in ('sent', 'delivered', 'undelivered')), 0)::int`,
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
  return {
    textsSent: Number(row?.textsSent ?? 0),
    textsDelivered: Number(row?.textsDelivered ?? 0),
    segmentsSent: Number(row?.segmentsSent ?? 0),
  };
}
