import { and, eq, inArray, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { CustomerRow } from '../../db/rows.ts';
import { customers } from '../../db/schema.ts';
import type { PhoneOptedOut } from './waitlist.repo.ts';

/**
 * The customers table as texting, the conversation and openings change it (features/waitlist owns the table;
 * wiring.ts hands these over): the first-text mark, the opt-out mirror, the offer statuses, the automatic
 * answer's time and the reply verdict. Each takes the caller's executor, so it runs in the caller's
 * transaction.
 */

export function setCustomerStatus(
  executor: Executor,
  customerIds: string | string[],
  status: CustomerRow['status'],
  now: Date,
) {
  const ids = [customerIds].flat();
  if (ids.length === 0) return Promise.resolve();
  return executor.update(customers).set({ status, updatedAt: now }).where(inArray(customers.id, ids));
}

/** An offered customer goes back to waiting, unless another open alert has texted it (a read of openings). */
/**
 * Back to waiting, unless another open alert holds the customer. Answers the customer's status after (read
 * again when the UPDATE found nothing to change: another transaction may have freed them already).
 */
export async function releaseCustomer(
  executor: Executor,
  customerId: string,
  now: Date,
): Promise<CustomerRow['status']> {
  const [released] = await executor
    .update(customers)
    .set({ status: 'waiting', updatedAt: now })
    .where(
      and(
        eq(customers.id, customerId),
        eq(customers.status, 'offered'),
        sql`not exists (select 1 from offers o join openings op on op.id = o.opening_id where o.customer_id = ${customerId} and op.status = 'open' and o.sent_at is not null)`,
      ),
    )
    .returning({ status: customers.status });
  if (released) return released.status;
  const [row] = await executor
    .select({ status: customers.status })
    .from(customers)
    .where(eq(customers.id, customerId));
  return row?.status ?? 'removed';
}

/** The customers opening `openingId` offered a slot to, and no other open alert did: back to waiting. */
export async function releaseOfferedBy(executor: Executor, openingId: string) {
  // SKIP LOCKED: a customer row another transaction holds (its own YES being answered) is left to that
  // transaction (it releases itself) or to the next worker pass, so the claim never waits on it (no deadlock).
  await executor.execute(sql`
    update customers set status = 'waiting', updated_at = now()
    where id in (
      select c.id from customers c
      join offers o on o.customer_id = c.id and o.opening_id = ${openingId}
      where c.status = 'offered'
        and not exists (
          select 1 from offers o2 join openings op on op.id = o2.opening_id
          where o2.customer_id = c.id and op.status = 'open' and o2.sent_at is not null and op.id <> ${openingId}
        )
      for update of c skip locked
    )`);
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

/** The language a customer switched to by text ("ESPAÑOL" / "ENGLISH", issue 28). */
export function setLanguage(
  executor: Executor,
  customerId: string,
  language: CustomerRow['language'],
  now: Date,
) {
  return executor.update(customers).set({ language, updatedAt: now }).where(eq(customers.id, customerId));
}

/**
 * Mirrors the business's opt-out of a phone (features/messaging's sms_opt_outs, issue 24) on every customers
 * row of that phone, removed ones too, so a customer added again keeps it.
 */
export function setOptedOutByPhone(
  executor: Executor,
  userId: string,
  phone: string,
  optedOut: boolean,
  now: Date,
) {
  return executor
    .update(customers)
    .set({ optedOut, optedOutAt: optedOut ? now : null, updatedAt: now })
    .where(and(eq(customers.userId, userId), eq(customers.phone, phone), ne(customers.optedOut, optedOut)));
}

/**
 * Claims customers of one business for a text each, in one statement: flags their first text as sent and
 * answers, per customer claimed, its phone and whether a text had gone to it before. Opted-out customers (unless
 * `allowOptedOut`), other businesses' customers and a business without a verified number claim none. The rows
 * are locked FOR NO KEY UPDATE, so a concurrent reply's foreign-key lock on a customer never blocks it.
 */
export async function claimCustomersForText(
  executor: Executor,
  input: { userId: string; customerIds: string[]; allowOptedOut: boolean },
  phoneOptedOut?: PhoneOptedOut,
) {
  if (input.customerIds.length === 0) return [];
  const ids = sql.join(
    input.customerIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const result = await executor.execute(sql`
    update ${customers} c set first_text_sent = true
    from (select id, first_text_sent as was from ${customers}
          where id in (${ids}) and user_id = ${input.userId}
          -- One lock order for every claim, so two batches over the same customers cannot deadlock.
          order by id for no key update) o
    where c.id = o.id
      and (not c.opted_out or ${input.allowOptedOut})
      ${phoneOptedOut ? sql`and (${input.allowOptedOut} or not ${phoneOptedOut(sql`c.user_id`, sql`c.phone`)})` : sql``}
      and exists (select 1 from users u where u.id = ${input.userId}
                  and u.plivo_number_status = 'verified' and u.plivo_number is not null)
    returning c.id, c.phone, o.was as "wasFirstTextSent"`);
  return (result as unknown as { rows: { id: string; phone: string; wasFirstTextSent: boolean }[] }).rows;
}

/**
 * Takes the automatic answer for this reply: true for the one caller that moves auto_answered_at from the
 * value its decision read (`seen`) to `now`; two replies at once cannot both get one. The reply policy
 * decided that the answer is due; this only makes the change once.
 */
export async function takeAutoAnswer(
  executor: Executor,
  customerId: string,
  seen: Date | null,
  now: Date,
): Promise<boolean> {
  const taken = await executor
    .update(customers)
    .set({ autoAnsweredAt: now })
    .where(
      and(
        eq(customers.id, customerId),
        seen ? eq(customers.autoAnsweredAt, seen) : isNull(customers.autoAnsweredAt),
      ),
    )
    .returning({ id: customers.id });
  return taken.length === 1;
}

/** The reply verdict as stored (features/conversation/reply-policy.ts writes it, decision 0013). */
export interface StoredReplyVerdict {
  onClaim: 'quiet' | 'act';
  onText: 'quiet' | 'answer' | 'act';
  textUntil: Date | null;
  push: boolean;
}

/**
 * Stores the reply verdict, only while the row still holds the status, opt-out and automatic-answer time it
 * was decided from (`decidedFrom`): a change another transaction committed meanwhile leaves it unknown
 * (null), which costs the next reply a transaction and never a lost follow-up.
 */
export async function writeReplyVerdict(
  executor: Executor,
  customerId: string,
  decidedFrom: Pick<CustomerRow, 'status' | 'optedOut' | 'autoAnsweredAt'>,
  verdict: StoredReplyVerdict,
) {
  const answeredAt = decidedFrom.autoAnsweredAt;
  await executor
    .update(customers)
    .set({
      replyOnClaim: verdict.onClaim,
      replyOnText: verdict.onText,
      replyTextUntil: verdict.textUntil,
      replyPush: verdict.push,
    })
    .where(
      and(
        eq(customers.id, customerId),
        eq(customers.status, decidedFrom.status),
        eq(customers.optedOut, decidedFrom.optedOut),
        answeredAt ? eq(customers.autoAnsweredAt, answeredAt) : isNull(customers.autoAnsweredAt),
      ),
    );
}

/** writeReplyVerdict for several customers in one statement, each guarded by the state it was decided from. */
export async function writeReplyVerdicts(
  executor: Executor,
  entries: {
    customerId: string;
    decidedFrom: Pick<CustomerRow, 'status' | 'optedOut' | 'autoAnsweredAt'>;
    verdict: StoredReplyVerdict;
  }[],
) {
  if (entries.length === 0) return;
  const rows = sql.join(
    entries.map(
      ({ customerId, decidedFrom, verdict }) =>
        sql`(${customerId}::uuid, ${decidedFrom.status}, ${decidedFrom.optedOut}::boolean, ${decidedFrom.autoAnsweredAt?.toISOString() ?? null}::timestamptz, ${verdict.onClaim}, ${verdict.onText}, ${verdict.textUntil?.toISOString() ?? null}::timestamptz, ${verdict.push}::boolean)`,
    ),
    sql`, `,
  );
  await executor.execute(sql`
    update ${customers} c set reply_on_claim = v.on_claim, reply_on_text = v.on_text,
      reply_text_until = v.text_until, reply_push = v.push
    from (values ${rows}) as v (id, status, opted_out, answered_at, on_claim, on_text, text_until, push)
    where c.id = v.id and c.status = v.status and c.opted_out = v.opted_out
      and c.auto_answered_at is not distinct from v.answered_at`);
}

/**
 * The automatic answer taken on a verdict of 'answer', as part of a statement that does more
 * (features/messaging stores the reply and queues the answer in one statement, decision 0013): one UPDATE
 * that moves the verdict to what the policy said follows an answer (`after`, `afterUntil`), re-checked on
 * the row's newest version, so replies that race get one answer. `customerId` is SQL (a subquery: no row, no
 * answer). Returns `id`, `phone` and `was` (first_text_sent before; the answer gets the opt-out line if not).
 */
export const answerOnVerdictSql = (customerId: SQL, now: SQL, after: SQL, afterUntil: SQL) => sql`
  update ${customers} c set auto_answered_at = ${now}, first_text_sent = true, reply_on_text = ${after},
    reply_text_until = ${afterUntil}
  from (select id, first_text_sent as was from ${customers} where id = ${customerId} for no key update) o
  where c.id = o.id and c.reply_on_text = 'answer'
  returning c.id, c.phone, o.was`;
