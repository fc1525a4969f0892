import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { outbox } from '../../db/schema.ts';
import type { EmailMessage } from '../../providers/email/index.ts';

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
 * Claims up to `limit` due messages by pushing their next attempt forward by `leaseMs` (a lease) and
 * counting the attempt. SKIP LOCKED lets several workers claim side by side; if a worker dies mid-send
 * the lease runs out and another one retries, so delivery is at least once and never lost.
 */
export async function claimDue(
  executor: Executor,
  now: Date,
  limit: number,
  leaseMs: number,
): Promise<OutboxRow[]> {
  // Select, then update, in one transaction: UPDATE … RETURNING gives no order, and the worker delivers a
  // batch in the order returned here, so the due order is kept from the SELECT.
  return executor.transaction(async (tx) => {
    const due = await tx
      .select({ id: outbox.id })
      .from(outbox)
      .where(and(eq(outbox.status, 'pending'), lte(outbox.nextAttemptAt, now)))
      .orderBy(outbox.nextAttemptAt, outbox.createdAt)
      .limit(limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    const claimed = await tx
      .update(outbox)
      .set({ nextAttemptAt: new Date(now.getTime() + leaseMs), attempts: sql`${outbox.attempts} + 1` })
      .where(
        inArray(
          outbox.id,
          due.map((row) => row.id),
        ),
      )
      .returning();
    const position = new Map(due.map((row, index) => [row.id, index]));
    return claimed.sort((a, b) => position.get(a.id)! - position.get(b.id)!);
  });
}

export function markSent(executor: Executor, id: string, now: Date) {
  return executor
    .update(outbox)
    .set({ status: 'sent', sentAt: now, lastError: null })
    .where(eq(outbox.id, id));
}

export function markFailed(executor: Executor, id: string, error: string, retryAt: Date | null) {
  return executor
    .update(outbox)
    .set(retryAt ? { lastError: error, nextAttemptAt: retryAt } : { lastError: error, status: 'dead' })
    .where(eq(outbox.id, id));
}
