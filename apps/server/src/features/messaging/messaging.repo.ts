import { type Message, smsInfo, textAsSent } from '@waitlist/contract';
import { and, asc, desc, eq, gte, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { type Database, type Executor, preparedRows } from '../../db/client.ts';
import type { CustomerRow, MessageRow } from '../../db/rows.ts';
import { customers, inboundEvents, messages, users } from '../../db/schema.ts';
import { sendSlot } from '../../lib/rate-limit.ts';
import { enqueueSmsDeliverySql, markSentSql } from '../../outbox/index.ts';
import { optedOutSql } from './opt-outs.repo.ts';

/**
 * The one home of the `messages` and `inbound_events` tables (decision 0008). Customers are changed by
 * features/waitlist's repo and the outbox by its own module; some statements here read those tables (a join
 * or a condition), none writes them; the business's number is set (and read on its own) through features/auth's repo.
 */
export type { MessageRow };
export type NewMessage = typeof messages.$inferInsert;

const iso = (date: Date | null) => (date ? date.toISOString() : null);
/** A timestamp read outside Drizzle: a Date (node-postgres, PGlite) or its text (inside JSON). */
const dateOrNull = (value: unknown) =>
  value === null || value === undefined ? null : value instanceof Date ? value : new Date(String(value));
/** A value given when a prepared statement runs (db/client.ts preparedRows). */
const p = (name: string) => sql.placeholder(name);

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

/** An inbound text as the provider handed it over, to store. */
export interface InboundTextInput {
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
}

export type RecordedInboundText =
  | { outcome: 'duplicate' }
  | { outcome: 'unknown_number' }
  | {
      outcome: 'stored';
      messageId: string;
      /** The business the text was sent to: what a reply handler needs to answer, read in the same statement. */
      user: { id: string; businessName: string; timeZone: string; pushEnabled: boolean };
      customer: CustomerRow | undefined;
    };

/**
 * The SQL of a reply that asks nothing of anyone, over the business's `users` row `u` and the customer's
 * `customers` row `c` (never null here), at `now`, for a claim ("YES") or free text: given by the reply
 * handler (features/openings), whose rules it mirrors.
 */
export type QuietReplyCondition = (rows: { u: SQL; c: SQL }, now: SQL, claim: boolean) => SQL;

/**
 * A free-text reply whose one consequence is the automatic answer, as the reply handler (features/openings)
 * gives it: when, in SQL over `u` and `c` at `now` (the customer exists and is opted in); the claim on the
 * customer's row (features/waitlist's claimAutoAnswerSql: an UPDATE returning id, phone and `was`, the
 * first-text mark before); the answer's text for the business's name as stored.
 */
export interface AutoAnswerRule {
  due: (rows: { u: SQL; c: SQL }, now: SQL) => SQL;
  claim: (customerId: SQL, now: SQL) => SQL;
  text: (businessName: string) => string;
}

/**
 * A text as it is queued: the opt-out footer on a customer's first text, and the segments and encoding of
 * the result (every writer of outbound texts, so they cannot differ).
 */
export function queuedText(body: string, options: { firstText: boolean }) {
  const sent = textAsSent(body, options);
  const info = smsInfo(sent);
  return { body: sent, segments: info.segments, encoding: info.encoding };
}

/** The automatic answer as sent to a customer texted before (`plain`) and as a first text (`first`). */
interface AnswerTexts {
  businessName: string;
  plain: ReturnType<typeof queuedText>;
  first: ReturnType<typeof queuedText>;
}

function answerTexts(rule: AutoAnswerRule, businessName: string): AnswerTexts {
  const text = rule.text(businessName);
  return {
    businessName,
    plain: queuedText(text, { firstText: false }),
    first: queuedText(text, { firstText: true }),
  };
}

/**
 * The two ways an inbound text is stored, built once per database and run as named prepared statements
 * (issue 16). Both find the business that owns number `to` and the waitlist entry of phone `from` on it (the
 * live one, else the most recently changed removed one) and record the provider's id, so a replay stores
 * nothing more. PGlite and PostgreSQL alike.
 *
 * - `record`, in the caller's transaction: stores the text and answers with the business and the customer,
 *   for what follows (keywords, claims, automatic answers) to run in the same transaction.
 * - `recordIfQuiet`, on its own: stores a reply only when the database finds, as it stores it, that nothing
 *   follows it (the customer opted out, or `rules.quiet` holds: most replies are "Thanks!" or a YES to a slot
 *   already filled), or that only the automatic answer does (`rules.autoAnswer`: the answer is queued in the
 *   same statement, decision 0012). One statement instead of seven, BEGIN and COMMIT among them, is most of
 *   their cost. Anything else stores nothing and answers 'not_quiet': the caller then takes the
 *   transaction's way.
 */
export function prepareInboundTexts(
  db: Database,
  rules?: { quiet: QuietReplyCondition; autoAnswer?: AutoAnswerRule },
) {
  const now = sql`${p('now')}::timestamptz`;
  const recipient = (extra: SQL) => sql`
    select u.id as user_id, u.business_name, u.time_zone, u.push_notifications_enabled, c.id as customer_id${extra}
    from ${users} u
    left join ${customers} c on c.user_id = u.id and c.phone = ${p('from')}::text
    where u.plivo_number = ${p('to')}::text
    order by case when c.status <> 'removed' then 0 else 1 end, c.updated_at desc
    limit 1`;
  const message = (readAt: SQL) => sql`
    insert into ${messages} (user_id, customer_id, direction, from_number, to_number, body, segments, encoding,
      provider_message_id, status, created_at, read_at)
    select recipient.user_id, recipient.customer_id, 'in', ${p('from')}::text, ${p('to')}::text, ${p('body')}::text,
      ${p('segments')}::int, ${p('encoding')}::text, ${p('providerMessageId')}::text, 'received', ${now}, ${readAt}
    from recipient where exists (select 1 from event)
    returning id`;
  const record = preparedRows(
    db,
    'inbound_record',
    sql`
      with event as (
        insert into ${inboundEvents} (id, received_at) values (${p('eventId')}::text, ${now})
        on conflict (id) do nothing returning id
      ), recipient as (${recipient(sql`, to_jsonb(c) as customer`)}
      ), message as (${message(sql`case when ${p('read')}::boolean then ${now} end`)})
      select (select count(*) from event)::int, (select id from message), recipient.user_id,
        recipient.business_name, recipient.time_zone, recipient.push_notifications_enabled, recipient.customer
      from (select 1) as one left join recipient on true`,
  );
  const rows = { u: sql`u`, c: sql`c` };
  const autoAnswer = rules?.autoAnswer;
  // The answer is due when the rule says so for a customer who is opted in, of a business whose number can
  // text (else the transaction's way says why not); it is queued here when the business's name is the one its
  // text was written for (`answerFor`), else the caller writes it again. A claim is never answered so.
  const answering = sql`(recipient.answer_due and coalesce(recipient.business_name, '') = ${p('answerFor')}::text)`;
  const answerCtes = (rule: AutoAnswerRule) => sql`
      , answered as (${rule.claim(
        sql`(select customer_id from recipient where ${answering} and exists (select 1 from message))`,
        now,
      )}
      ), answer as (
        insert into ${messages} (user_id, customer_id, direction, from_number, to_number, body, segments, encoding,
          status, created_at)
        select recipient.user_id, answered.id, 'out', recipient.plivo_number, answered.phone,
          case when answered.was then ${p('answer')}::text else ${p('firstAnswer')}::text end,
          case when answered.was then ${p('answerSegments')}::int else ${p('firstAnswerSegments')}::int end,
          case when answered.was then ${p('answerEncoding')}::text else ${p('firstAnswerEncoding')}::text end,
          'queued', ${now}
        from recipient, answered
        returning id
      ), queued as (${enqueueSmsDeliverySql(sql`select id as message_id, 0 as position from answer`, now)})`;
  const ifQuiet = (claim: boolean) => {
    const quiet = rules ? rules.quiet(rows, now, claim) : sql`false`;
    const answers = claim ? undefined : autoAnswer;
    const answerDue = answers
      ? sql`(c.id is not null and not c.opted_out and not ${optedOutSql(sql`u.id`, sql`c.phone`)} and u.plivo_number_status = 'verified' and (${answers.due(rows, now)}))`
      : sql`false`;
    return preparedRows(
      db,
      claim ? 'inbound_record_if_quiet_claim' : 'inbound_record_if_quiet',
      sql`
        with recipient as (${recipient(sql`, c.opted_out, u.plivo_number, (c.id is not null and (c.opted_out or (${quiet}))) as quiet, ${answerDue} as answer_due`)}
        ), event as (
          insert into ${inboundEvents} (id, received_at) select ${p('eventId')}::text, ${now} from recipient
          where quiet or ${answering}
          on conflict (id) do nothing returning id
        ), message as (${message(claim ? now : sql`null`)})${answers ? answerCtes(answers) : sql``}
        select coalesce(recipient.quiet or ${answering}, false), (select count(*) from event)::int,
          (select id from message), recipient.opted_out, coalesce(recipient.answer_due, false),
          recipient.business_name, ${answers ? sql`(select count(*) from answer)::int` : sql`0`}
        from (select 1) as one left join recipient on true`,
    );
  };
  const recordIfQuiet = { text: ifQuiet(false), claim: ifQuiet(true) };
  // The answer's texts by the business number they were last written for (a business's name rarely changes;
  // the statement checks it, so a stale one only costs the second statement).
  const answersByNumber = new Map<string, AnswerTexts>();
  const values = (input: InboundTextInput) => ({
    eventId: input.eventId,
    from: input.from,
    to: input.to,
    body: input.body,
    segments: input.segments,
    encoding: input.encoding,
    providerMessageId: input.providerMessageId,
    now: input.now.toISOString(),
    read: input.read,
  });
  const answerValues = (texts: AnswerTexts | undefined) => ({
    answerFor: texts?.businessName ?? null,
    answer: texts?.plain.body ?? null,
    answerSegments: texts?.plain.segments ?? null,
    answerEncoding: texts?.plain.encoding ?? null,
    firstAnswer: texts?.first.body ?? null,
    firstAnswerSegments: texts?.first.segments ?? null,
    firstAnswerEncoding: texts?.first.encoding ?? null,
  });

  return {
    async record(executor: Executor, input: InboundTextInput): Promise<RecordedInboundText> {
      const [row] = await record(values(input), executor);
      const [fresh, messageId, userId, businessName, timeZone, pushEnabled, customer] = row ?? [];
      if (!fresh) return { outcome: 'duplicate' };
      if (!userId || !messageId) return { outcome: 'unknown_number' };
      return {
        outcome: 'stored',
        messageId: messageId as string,
        user: {
          id: userId as string,
          businessName: (businessName as string | null) ?? '',
          timeZone: (timeZone as string | null) ?? 'UTC',
          pushEnabled: pushEnabled === true,
        },
        customer: customer ? customerFromJson(customer as Record<string, unknown>) : undefined,
      };
    },
    /**
     * A claim is stored read, like keywords: the inbox counts only replies the owner should read. `answered`:
     * the automatic answer was queued with it (the caller wakes the outbox).
     */
    async recordIfQuiet(
      input: Omit<InboundTextInput, 'read'>,
      claim: boolean,
    ): Promise<
      | { outcome: 'not_quiet' }
      | { outcome: 'duplicate' }
      | { outcome: 'stored'; messageId: string; customerOptedOut: boolean; answered: boolean }
    > {
      const run = async (texts: AnswerTexts | undefined) => {
        const given = { ...values({ ...input, read: claim }), ...answerValues(texts) };
        const [row] = await (claim ? recordIfQuiet.claim : recordIfQuiet.text)(given);
        return row ?? [];
      };
      let texts = claim ? undefined : answersByNumber.get(input.to);
      let [quiet, fresh, messageId, optedOut, answerDue, businessName, answers] = await run(texts);
      if (!quiet && answerDue && autoAnswer) {
        // The answer is due, written for another name (or none yet): write it for this one, and store again.
        texts = answerTexts(autoAnswer, (businessName as string | null) ?? '');
        if (answersByNumber.size >= 10_000) answersByNumber.clear();
        answersByNumber.set(input.to, texts);
        [quiet, fresh, messageId, optedOut, answerDue, businessName, answers] = await run(texts);
      }
      if (!quiet) return { outcome: 'not_quiet' };
      if (!fresh || !messageId) return { outcome: 'duplicate' };
      return {
        outcome: 'stored',
        messageId: messageId as string,
        customerOptedOut: optedOut === true,
        answered: Number(answers) > 0,
      };
    },
  };
}

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
