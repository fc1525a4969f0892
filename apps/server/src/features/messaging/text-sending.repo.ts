import { and, eq, inArray, sql } from 'drizzle-orm';
import { type Database, dateOrNull, type Executor, placeholder as p, preparedRows } from '../../db/client.ts';
import type { MessageRow } from '../../db/rows.ts';
import { customers, messages, users } from '../../db/schema.ts';
import { sendSlot } from '../../lib/rate-limit.ts';
import { enqueueSmsDeliverySql, markSentSql } from '../../outbox/index.ts';
import { optedOutSql } from './opt-outs.repo.ts';

/**
 * Texts on their way out (the `messages` table's outbound side, decision 0008): queued in one statement per
 * batch, then each sent in two statements by the outbox's 'sms' kind (sms-delivery.ts).
 */

export function markMessageFailed(executor: Executor, id: string, error: string) {
  return executor
    .update(messages)
    .set({ status: 'failed', error })
    .where(and(eq(messages.id, id), eq(messages.status, 'queued')));
}

/** A queued text as its delivery reads it: what it checks, and whether the account's send slot was taken. */
export interface TextToSend {
  id: string;
  userId: string;
  status: MessageRow['status'];
  fromNumber: string;
  toNumber: string;
  body: string;
  /** When an earlier attempt began calling the provider (null: none did, or it is known to have failed). */
  previousSendStartedAt: Date | null;
  /** The business's number now, and its status. */
  senderNumber: string | null;
  senderStatus: string | null;
  customerOptedOut: boolean;
  /** The slot was taken for this send (and, when asked, the send marked started). */
  slotTaken: boolean;
  /** When the slot held by another send frees (null: it was free, or no slot yet). */
  slotFreeAt: Date | null;
}

/**
 * A text's delivery in two statements (issue 16: it was six, each a round trip that cost the server ~100 µs
 * of CPU in its socket write). Built once per database, run as named prepared statements.
 *
 * - `begin` reads the queued text with what its delivery checks (the sender's number now, the customer's
 *   opt-out) and, when it may go, takes its account's send slot (lib/rate-limit.ts) and marks the send
 *   started, in one statement: the mark is committed before the provider is called, so a worker that dies
 *   mid-call leaves a text the next attempt asks the provider about before sending it again (decision 0010).
 * - `finish` records the provider's answer, frees the slot one interval later and marks the outbox row sent,
 *   in one statement: they commit together or not at all.
 * - `abort` frees the slot when nothing was handed over, and sets the send mark as the failure leaves it.
 */
export function prepareTextSending(db: Database) {
  const begin = preparedRows(
    db,
    'sms_begin_send',
    sql`
      with text as (
        select m.id, m.user_id, m.status, m.from_number, m.to_number, m.body, m.send_started_at,
          u.plivo_number as sender_number, u.plivo_number_status as sender_status,
          (coalesce(c.opted_out, false) or ${optedOutSql(sql`m.user_id`, sql`m.to_number`)}) as opted_out
        from ${messages} m
        join ${users} u on u.id = m.user_id
        left join ${customers} c on c.id = m.customer_id
        where m.id = ${p('messageId')}::uuid
      ), sendable as (
        select user_id from text
        where status = 'queued' and sender_status = 'verified' and sender_number = from_number
          and (${p('compliance')}::boolean or not opted_out)
      ), slot as (
        ${sendSlot.take(sql`select user_id from sendable`, sql`${p('lease')}::timestamptz`, sql`${p('now')}::timestamptz`)}
      ), started as (
        update ${messages} set send_started_at = ${p('now')}::timestamptz
        where id = ${p('messageId')}::uuid and status = 'queued' and ${p('marksStart')}::boolean
          and exists (select 1 from slot)
      )
      select id, user_id, status, from_number, to_number, body, send_started_at, sender_number, sender_status,
        opted_out, exists (select 1 from slot) as slot_taken, ${sendSlot.freeAt(sql`text.user_id`)} as slot_free_at
      from text`,
  );
  const finish = preparedRows(
    db,
    'sms_finish_send',
    sql`
      with sent as (
        update ${messages} set provider_message_id = ${p('providerMessageId')}::text,
          status = ${p('status')}::text, sent_at = ${p('now')}::timestamptz,
          delivered_at = case when ${p('status')}::text = 'delivered' then ${p('now')}::timestamptz end,
          error = null
        where id = ${p('messageId')}::uuid and status = 'queued'
        returning id
      ), slot as (
        ${sendSlot.release(sql`${p('userId')}::uuid`, sql`${p('freeAt')}::timestamptz`)}
      ), done as (
        ${markSentSql(sql`${p('outboxId')}::uuid`, sql`${p('now')}::timestamptz`)}
      )
      select count(*)::int from sent`,
  );
  const abort = preparedRows(
    db,
    'sms_abort_send',
    sql`
      with mark as (
        update ${messages}
        set send_started_at = case when ${p('keepMark')}::boolean then send_started_at else ${p('sendStartedAt')}::timestamptz end
        where id = ${p('messageId')}::uuid and status = 'queued'
      )
      ${sendSlot.release(sql`${p('userId')}::uuid`, sql`${p('freeAt')}::timestamptz`)}`,
  );

  return {
    /** Reads the text and, when it may go now, takes the slot until `lease` (and marks the send started). */
    async begin(input: {
      messageId: string;
      compliance: boolean;
      now: Date;
      lease: Date;
      marksStart: boolean;
    }): Promise<TextToSend | undefined> {
      const [row] = await begin({
        messageId: input.messageId,
        compliance: input.compliance,
        now: input.now.toISOString(),
        lease: input.lease.toISOString(),
        marksStart: input.marksStart,
      });
      if (!row) return undefined;
      return {
        id: row[0] as string,
        userId: row[1] as string,
        status: row[2] as MessageRow['status'],
        fromNumber: row[3] as string,
        toNumber: row[4] as string,
        body: row[5] as string,
        previousSendStartedAt: dateOrNull(row[6]),
        senderNumber: row[7] as string | null,
        senderStatus: row[8] as string | null,
        customerOptedOut: row[9] as boolean,
        slotTaken: row[10] as boolean,
        slotFreeAt: dateOrNull(row[11]),
      };
    },
    /** The provider took the text: false when it was no longer queued (someone else recorded it). */
    async finish(input: {
      messageId: string;
      userId: string;
      outboxId: string;
      result: { providerMessageId: string; status: 'sent' | 'delivered' };
      now: Date;
      freeAt: Date;
    }): Promise<boolean> {
      const [row] = await finish({
        messageId: input.messageId,
        userId: input.userId,
        outboxId: input.outboxId,
        providerMessageId: input.result.providerMessageId,
        status: input.result.status,
        now: input.now.toISOString(),
        freeAt: input.freeAt.toISOString(),
      });
      return (row?.[0] as number) > 0;
    },
    /** Nothing was handed over: frees the slot at `freeAt`; the send mark is kept, or set to `sendStartedAt`. */
    async abort(input: {
      messageId: string;
      userId: string;
      freeAt: Date;
      sendStartedAt: Date | null | 'keep';
    }): Promise<void> {
      await abort({
        messageId: input.messageId,
        userId: input.userId,
        freeAt: input.freeAt.toISOString(),
        keepMark: input.sendStartedAt === 'keep',
        sendStartedAt: input.sendStartedAt instanceof Date ? input.sendStartedAt.toISOString() : null,
      });
    },
  };
}
export type TextSending = ReturnType<typeof prepareTextSending>;

/**
 * Inserts one business's queued texts and their outbox rows in one statement, in the order given, the
 * sender's number read in the same statement; inserts none when the number is not verified, and none to a
 * phone that opted out of the business (sms_opt_outs, issue 24). Answers the ids it inserted.
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
  if (input.texts.length === 0) return new Set<string>();
  const rows = sql.join(
    input.texts.map(
      (text, index) =>
        sql`(${index}, ${text.id}::uuid, ${text.customerId}::uuid, ${text.openingId}::uuid, ${text.to}, ${text.body}, ${text.segments}::int, ${text.encoding})`,
    ),
    sql`, `,
  );
  const now = sql`${input.now.toISOString()}::timestamptz`;
  const result = await executor.execute(sql`
    with texts (position, id, customer_id, opening_id, to_number, body, segments, encoding) as (
      values ${rows}
    ), sender as (
      select plivo_number from ${users}
      where id = ${input.userId} and plivo_number_status = 'verified' and plivo_number is not null
    ), message as (
      insert into ${messages} (id, user_id, customer_id, opening_id, direction, from_number, to_number, body,
        segments, encoding, status, created_at)
      select t.id, ${input.userId}, t.customer_id, t.opening_id, 'out', sender.plivo_number,
        t.to_number, t.body, t.segments, t.encoding, 'queued', ${now}
      from sender, texts t
      where not ${optedOutSql(sql`${input.userId}::uuid`, sql`t.to_number`)}
      order by t.position
      returning id
    ), queued as (
      ${enqueueSmsDeliverySql(sql`select message.id as message_id, t.position from message join texts t on t.id = message.id`, now)}
    )
    select id from message`);
  return new Set((result as unknown as { rows: { id: string }[] }).rows.map((row) => row.id));
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
