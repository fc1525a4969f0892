import type { Locale } from '@waitlist/contract';
import { eq, type SQL, sql } from 'drizzle-orm';
import { type Database, dateOrNull, type Executor, placeholder as p, preparedRows } from '../../db/client.ts';
import type { CustomerRow } from '../../db/rows.ts';
import { customers, inboundEvents, messages, users } from '../../db/schema.ts';
import { useNonceSql } from '../../nonces/index.ts';
import { enqueueSmsDeliverySql } from '../../outbox/index.ts';
import { queuedText } from './messaging.repo.ts';
import { optedOutSql } from './opt-outs.repo.ts';

/**
 * The signature nonce a webhook carried (issue 24), recorded as used by the statement that stores its text
 * (issue 40: one round trip, not two). A nonce used before stores nothing: the outcome is 'duplicate'.
 */
export interface SignedNonce {
  scope: string;
  nonce: string;
  expiresAt: Date;
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
  /** The webhook's nonce; null when the text came without one (the local phone). */
  nonce: SignedNonce | null;
  /**
   * Keywords are stored read (the app answered them): the inbox counts only replies the owner should read. A
   * YES is stored unread and marked read only when it wins the slot (the opening shows the win); a YES that
   * arrives after the slot is decided stays unread for the owner to see (issue 27). A text from a number
   * that is not a customer (JOIN, its YES, a stranger's STOP) is stored read whatever it says: the inbox
   * shows customers' conversations, so it would be an unread the owner could never open.
   */
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
 * What the one-statement way needs from the conversation (features/conversation, decision 0013), none of it
 * a rule: the SQL that takes the automatic answer on a verdict of 'answer' (waitlist's answerOnVerdictSql),
 * the answer's text for a business name, and the free-text verdict that follows an answer given `now`.
 */
export interface VerdictAnswer {
  take: (customerId: SQL, now: SQL, after: SQL, afterUntil: SQL) => SQL;
  /** In the customer's language (issue 28). */
  text: (businessName: string, language: Locale) => string;
  after: (now: Date) => { onText: string; textUntil: Date | null };
}

/**
 * The automatic answer as sent to a customer texted before (`plain`) and as a first text (`first`), in each
 * language: the statement picks the customer's (`c.language`, issue 28).
 */
interface AnswerTexts {
  businessName: string;
  /** Whether the Spanish ones were written in plain letters (the business's setting, issue 28). */
  plainLetters: boolean;
  plain: Record<Locale, ReturnType<typeof queuedText>>;
  first: Record<Locale, ReturnType<typeof queuedText>>;
}

/** An answer's parameter as the customer's language picks it: `name` in English, `name`Es in Spanish. */
const inLanguage = (name: string, type: 'text' | 'int') =>
  sql`case when recipient.language = 'es' then ${p(`${name}Es`)}::${sql.raw(type)} else ${p(name)}::${sql.raw(type)} end`;

/**
 * The two ways an inbound text is stored, built once per database and run as named prepared statements
 * (issue 16). Both find the business that owns number `to` and the waitlist entry of phone `from` on it (the
 * live one, else the most recently changed removed one) and record the provider's id, so a replay stores
 * nothing more. PGlite and PostgreSQL alike.
 *
 * - `record`, in the caller's transaction: stores the text and answers with the business and the customer,
 *   for the conversation to decide and act on in the same transaction.
 * - `recordIfQuiet`, on its own: stores a reply only when the customer's stored reply verdict (decision
 *   0013) says it changes nothing, or that its one follow-up is the automatic answer (queued in the same
 *   statement). The statement reads the verdict and checks it is still valid (made with the owner's push
 *   setting of now, not past its end); it decides nothing. Anything else stores nothing and answers
 *   'not_quiet': the caller then takes the transaction's way.
 */
export function prepareInboundTexts(db: Database, answer?: VerdictAnswer) {
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
      with nonce as (${nonceUse(now)}
      ), event as (
        insert into ${inboundEvents} (id, received_at) select ${p('eventId')}::text, ${now} where ${nonceFresh}
        on conflict (id) do nothing returning id
      ), recipient as (${recipient(sql`, to_jsonb(c) as customer`)}
      ), message as (${message(sql`case when ${p('read')}::boolean or recipient.customer_id is null then ${now} end`)})
      select (select count(*) from event)::int, (select id from message), recipient.user_id,
        recipient.business_name, recipient.time_zone, recipient.push_notifications_enabled, recipient.customer
      from (select 1) as one left join recipient on true`,
  );
  const ifQuiet = prepareIfQuiet(db, { now, recipient, message, answer });

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
    recordIfQuiet: ifQuiet,
    /** A reply the owner need not read: the YES that won its slot (the opening shows the win). */
    async markRead(executor: Executor, messageId: string, now: Date) {
      await executor.update(messages).set({ readAt: now }).where(eq(messages.id, messageId));
    },
  };
}

/**
 * The nonce's part of both statements: recorded (when given and `when` holds), and whether this is its first
 * use, which the statement's event insert requires: a nonce used before stores nothing ('duplicate').
 */
const nonceUse = (now: SQL, when?: SQL) =>
  useNonceSql({
    scope: sql`${p('nonceScope')}::text`,
    nonce: sql`${p('nonce')}::text`,
    expiresAt: sql`${p('nonceExpiresAt')}::timestamptz`,
    now,
    when: sql`${p('nonce')}::text is not null${when ? sql` and ${when}` : sql``}`,
  });
const nonceFresh = sql`(${p('nonce')}::text is null or exists (select 1 from nonce))`;

const values = (input: InboundTextInput) => ({
  nonceScope: input.nonce?.scope ?? null,
  nonce: input.nonce?.nonce ?? null,
  nonceExpiresAt: input.nonce?.expiresAt.toISOString() ?? null,
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

/** The one-statement way (see prepareInboundTexts): a claim's and a free text's statements. */
function prepareIfQuiet(
  db: Database,
  parts: { now: SQL; recipient: (extra: SQL) => SQL; message: (readAt: SQL) => SQL; answer?: VerdictAnswer },
) {
  const { now, recipient, message, answer } = parts;
  // The verdict holds when it was made with the owner's push setting of now and its free-text part has not
  // run out; null (not known) never holds.
  const holds = sql`(c.reply_push = u.push_notifications_enabled and (c.reply_text_until is null or c.reply_text_until > ${now}))`;
  const quietOn = (claim: boolean) =>
    claim ? sql`(${holds} and c.reply_on_claim = 'quiet')` : sql`(${holds} and c.reply_on_text = 'quiet')`;
  // An 'answer' verdict is acted on here when the business's number can text and the phone did not opt out
  // (texting's own conditions: else the transaction's way says why not), and when the business's name is the
  // one the answer's text was written for (`answerFor`), else the caller writes it again.
  const answerDue = sql`(${holds} and c.reply_on_text = 'answer' and u.plivo_number_status = 'verified' and not ${optedOutSql(sql`u.id`, sql`c.phone`)})`;
  const answering = sql`(recipient.answer_due and coalesce(recipient.business_name, '') = ${p('answerFor')}::text
    and recipient.plain_spanish_letters = ${p('answerPlain')}::boolean)`;
  const answerCtes = (take: VerdictAnswer['take']) => sql`
      , answered as (${take(
        sql`(select customer_id from recipient where ${answering} and exists (select 1 from message))`,
        now,
        sql`${p('after')}::text`,
        sql`${p('afterUntil')}::timestamptz`,
      )}
      ), answer as (
        insert into ${messages} (user_id, customer_id, direction, from_number, to_number, body, segments, encoding,
          status, created_at)
        select recipient.user_id, answered.id, 'out', recipient.plivo_number, answered.phone,
          case when answered.was then ${inLanguage('answer', 'text')} else ${inLanguage('firstAnswer', 'text')} end,
          case when answered.was then ${inLanguage('answerSegments', 'int')} else ${inLanguage('firstAnswerSegments', 'int')} end,
          case when answered.was then ${inLanguage('answerEncoding', 'text')} else ${inLanguage('firstAnswerEncoding', 'text')} end,
          'queued', ${now}
        from recipient, answered
        returning id
      ), queued as (${enqueueSmsDeliverySql(sql`select id as message_id, 0 as position from answer`, now)})`;
  const statement = (claim: boolean) => {
    const answers = claim ? undefined : answer;
    return preparedRows(
      db,
      claim ? 'inbound_record_if_quiet_claim' : 'inbound_record_if_quiet',
      sql`
        with recipient as (${recipient(sql`, c.opted_out, c.language, u.plain_spanish_letters, u.plivo_number, coalesce(${quietOn(claim)}, false) as quiet, coalesce(${answers ? answerDue : sql`false`}, false) as answer_due`)}
        ), nonce as (${nonceUse(now, sql`exists (select 1 from recipient where quiet or ${answering})`)}
        ), event as (
          insert into ${inboundEvents} (id, received_at) select ${p('eventId')}::text, ${now} from recipient
          where (quiet or ${answering}) and ${nonceFresh}
          on conflict (id) do nothing returning id
        ), message as (${message(sql`null`)})${answers ? answerCtes(answers.take) : sql``}
        select coalesce(recipient.quiet or ${answering}, false), (select count(*) from event)::int,
          (select id from message), recipient.opted_out, coalesce(recipient.answer_due, false),
          recipient.business_name, ${answers ? sql`(select count(*)::int from answer)` : sql`0`},
          recipient.plain_spanish_letters
        from (select 1) as one left join recipient on true`,
    );
  };
  const statements = { text: statement(false), claim: statement(true) };
  // The answer's texts by the business number they were last written for (a business's name rarely changes;
  // the statement checks it, so a stale one only costs the second statement).
  const answersByNumber = new Map<string, AnswerTexts>();
  const answerValues = (texts: AnswerTexts | undefined, at: Date) => {
    const after = answer?.after(at);
    const inEach = (language: Locale, suffix: string) => ({
      [`answer${suffix}`]: texts?.plain[language].body ?? null,
      [`answerSegments${suffix}`]: texts?.plain[language].segments ?? null,
      [`answerEncoding${suffix}`]: texts?.plain[language].encoding ?? null,
      [`firstAnswer${suffix}`]: texts?.first[language].body ?? null,
      [`firstAnswerSegments${suffix}`]: texts?.first[language].segments ?? null,
      [`firstAnswerEncoding${suffix}`]: texts?.first[language].encoding ?? null,
    });
    return {
      answerFor: texts?.businessName ?? null,
      answerPlain: texts?.plainLetters ?? null,
      ...inEach('en', ''),
      ...inEach('es', 'Es'),
      after: after?.onText ?? null,
      afterUntil: after?.textUntil?.toISOString() ?? null,
    };
  };

  /**
   * A quiet claim (a YES that changes nothing: the slot was decided) is stored unread, like free text: the
   * owner sees it (issue 27). `answered`: the automatic answer was queued with it (the caller wakes the
   * outbox).
   */
  return async function recordIfQuiet(
    input: Omit<InboundTextInput, 'read'>,
    claim: boolean,
  ): Promise<
    | { outcome: 'not_quiet' }
    | { outcome: 'duplicate' }
    | { outcome: 'stored'; messageId: string; customerOptedOut: boolean; answered: boolean }
  > {
    const run = async (texts: AnswerTexts | undefined) => {
      const given = { ...values({ ...input, read: false }), ...answerValues(texts, input.now) };
      const [row] = await (claim ? statements.claim : statements.text)(given);
      return row ?? [];
    };
    let texts = claim ? undefined : answersByNumber.get(input.to);
    let [quiet, fresh, messageId, optedOut, answerDue, businessName, answers, plainLetters] =
      await run(texts);
    if (!quiet && answerDue && answer) {
      // The answer is due, written for another name (or none yet): write it for this one, and store again.
      const name = (businessName as string | null) ?? '';
      const [en, es] = [answer.text(name, 'en'), answer.text(name, 'es')];
      const spanish = { locale: 'es' as const, plainLetters: plainLetters === true };
      texts = {
        businessName: name,
        plainLetters: plainLetters === true,
        plain: {
          en: queuedText(en, { firstText: false }),
          es: queuedText(es, { firstText: false, ...spanish }),
        },
        first: {
          en: queuedText(en, { firstText: true, locale: 'en' }),
          es: queuedText(es, { firstText: true, ...spanish }),
        },
      };
      if (answersByNumber.size >= 10_000) answersByNumber.clear();
      answersByNumber.set(input.to, texts);
      [quiet, fresh, messageId, optedOut, answerDue, businessName, answers, plainLetters] = await run(texts);
    }
    if (!quiet) return { outcome: 'not_quiet' };
    if (!fresh || !messageId) return { outcome: 'duplicate' };
    return {
      outcome: 'stored',
      messageId: messageId as string,
      customerOptedOut: optedOut === true,
      answered: Number(answers) > 0,
    };
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
    serviceId: (json.service_id ?? null) as string | null,
    staffId: (json.staff_id ?? null) as string | null,
    timeZone: (json.time_zone ?? null) as string | null,
    language: json.language === 'es' ? 'es' : 'en',
    vip: json.vip === true,
    pinned: json.pinned === true,
    autoAnsweredAt: dateOrNull(json.auto_answered_at),
    replyOnClaim: (json.reply_on_claim ?? null) as CustomerRow['replyOnClaim'],
    replyOnText: (json.reply_on_text ?? null) as CustomerRow['replyOnText'],
    replyTextUntil: dateOrNull(json.reply_text_until),
    replyPush: (json.reply_push ?? null) as boolean | null,
    createdAt: dateOrNull(json.created_at)!,
    updatedAt: dateOrNull(json.updated_at)!,
  };
}
