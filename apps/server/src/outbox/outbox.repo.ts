import { and, eq, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { outbox } from '../db/schema.ts';
import type { EmailMessage } from '../providers/email/index.ts';

export type OutboxRow = typeof outbox.$inferSelect;

/**
 * Queues an email, due at `now` by the same clock the worker claims with (the database's own now() would
 * disagree with an injected clock, and with the app server's clock when the two drift apart). Rows due at
 * the same instant go out in insertion order (created_at).
 */
export function enqueueEmail(executor: Executor, message: EmailMessage, now: Date) {
  return executor.insert(outbox).values({ kind: 'email', payload: message, nextAttemptAt: now });
}

/**
 * Queues texts, one row each, in the order given (one statement): each payload names the messages row,
 * which holds everything to send (features/messaging).
 */
export async function enqueueSmsDelivery(executor: Executor, payloads: SmsOutboxPayload[], now: Date) {
  if (payloads.length === 0) return;
  // A cancellation alert queues its texts in one transaction, where now() is one instant for all of them:
  // clock_timestamp() (and the seq identity) keep them in the order they were queued (waitlist order).
  await executor.insert(outbox).values(
    payloads.map((payload) => ({
      kind: 'sms' as const,
      payload,
      nextAttemptAt: now,
      createdAt: sql`clock_timestamp()`,
    })),
  );
}

/**
 * enqueueSmsDelivery as part of a statement that does more (an INSERT): one row per message of `texts`, a
 * query with `message_id` and `position` columns, in position order (features/messaging inserts a batch of
 * texts and their rows in one statement, issue 16).
 */
export const enqueueSmsDeliverySql = (texts: SQL, now: SQL) => sql`
  insert into ${outbox} (kind, payload, next_attempt_at, created_at)
  select 'sms', jsonb_build_object('messageId', q.message_id), ${now}, clock_timestamp()
  from (${texts}) as q
  order by q.position`;

/** Queues a web push to one device (features/push): the payload names the subscription row and what to show. */
export function enqueuePushDelivery(executor: Executor, payload: PushOutboxPayload, now: Date) {
  return executor.insert(outbox).values({ kind: 'push', payload, nextAttemptAt: now });
}

export interface PushOutboxPayload {
  subscriptionId: string;
  title: string;
  body: string;
  url: string;
}

export interface SmsOutboxPayload {
  messageId: string;
  /** A STOP confirmation: goes out although the customer has just opted out. */
  compliance?: boolean;
}

/**
 * Puts a claimed row back until `until` without counting the attempt: the send rate, not a failure,
 * held it back.
 */
export function deferRow(executor: Executor, id: string, until: Date) {
  return executor
    .update(outbox)
    .set({ nextAttemptAt: until, attempts: sql`greatest(${outbox.attempts} - 1, 0)` })
    .where(eq(outbox.id, id));
}

/**
 * Claims up to `limit` due messages by pushing their next attempt forward by `leaseMs` (a lease) and
 * counting the attempt, in one statement. SKIP LOCKED lets several workers claim side by side; if a worker
 * dies mid-send the lease runs out and another one retries, so delivery is at least once and never lost.
 */
export async function claimDue(
  executor: Executor,
  now: Date,
  limit: number,
  leaseMs: number,
): Promise<OutboxRow[]> {
  const due = executor.$with('due').as(
    executor
      .select({
        dueId: sql<string>`${outbox.id}`.as('due_id'),
        dueAt: sql<Date>`${outbox.nextAttemptAt}`.as('due_at'),
      })
      .from(outbox)
      .where(and(eq(outbox.status, 'pending'), lte(outbox.nextAttemptAt, now)))
      .orderBy(outbox.nextAttemptAt, outbox.seq)
      .limit(limit)
      .for('update', { skipLocked: true }),
  );
  const claimed = await executor
    .with(due)
    .update(outbox)
    .set({ nextAttemptAt: new Date(now.getTime() + leaseMs), attempts: sql`${outbox.attempts} + 1` })
    .from(due)
    .where(eq(outbox.id, due.dueId))
    .returning({
      id: outbox.id,
      kind: outbox.kind,
      payload: outbox.payload,
      status: outbox.status,
      attempts: outbox.attempts,
      nextAttemptAt: outbox.nextAttemptAt,
      lastError: outbox.lastError,
      createdAt: outbox.createdAt,
      sentAt: outbox.sentAt,
      seq: outbox.seq,
      dueAt: sql<number>`extract(epoch from due.due_at)::float8`,
    });
  // UPDATE … RETURNING gives no order: the batch is delivered in due order (the time it fell due, then FIFO).
  return claimed.sort((a, b) => a.dueAt - b.dueAt || a.seq - b.seq).map(({ dueAt: _dueAt, ...row }) => row);
}

/** When the next pending row falls due (null: none pending). */
export async function nextDueAt(executor: Executor): Promise<Date | null> {
  const [row] = await executor
    .select({ at: outbox.nextAttemptAt })
    .from(outbox)
    .where(eq(outbox.status, 'pending'))
    .orderBy(outbox.nextAttemptAt)
    .limit(1);
  return row?.at ?? null;
}

export function markSent(executor: Executor, id: string, now: Date) {
  return executor
    .update(outbox)
    .set({ status: 'sent', sentAt: now, lastError: null })
    .where(eq(outbox.id, id));
}

/**
 * markSent as part of a statement that does more (an UPDATE): a text's row is marked sent in the statement
 * that records the text handed over (features/messaging, issue 16).
 */
export const markSentSql = (id: SQL, now: SQL) =>
  sql`update ${outbox} set status = 'sent', sent_at = ${now}, last_error = null where id = ${id}`;

export function markFailed(executor: Executor, id: string, error: string, retryAt: Date | null) {
  return executor
    .update(outbox)
    .set(retryAt ? { lastError: error, nextAttemptAt: retryAt } : { lastError: error, status: 'dead' })
    .where(eq(outbox.id, id));
}

/**
 * Hands claimed rows that were not started back to the queue at once (shutdown): due now, the attempt not
 * counted, so another instance picks them up without waiting for the lease.
 */
export function releaseClaimed(executor: Executor, ids: string[], now: Date) {
  if (ids.length === 0) return Promise.resolve();
  return executor
    .update(outbox)
    .set({ nextAttemptAt: now, attempts: sql`greatest(${outbox.attempts} - 1, 0)` })
    .where(and(inArray(outbox.id, ids), eq(outbox.status, 'pending')));
}

/** Depth and age for the metrics: rows per kind and status, and the oldest pending row's creation time. */
export async function outboxStats(executor: Executor) {
  return executor
    .select({
      kind: outbox.kind,
      status: outbox.status,
      count: sql<number>`count(*)::int`,
      oldest: sql<Date | null>`min(${outbox.createdAt})`.mapWith(outbox.createdAt),
    })
    .from(outbox)
    .groupBy(outbox.kind, outbox.status);
}
