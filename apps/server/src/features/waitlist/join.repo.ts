import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { joinRequests } from '../../db/schema.ts';

/** The join requests (issue 15): one home for the table. */
export type JoinRequestRow = typeof joinRequests.$inferSelect;

export async function insertJoinRequest(executor: Executor, values: typeof joinRequests.$inferInsert) {
  const [row] = await executor.insert(joinRequests).values(values).returning();
  return row!;
}

/** The newest pending request of a phone number at a business. */
export async function pendingJoinRequest(executor: Executor, userId: string, phone: string) {
  const [row] = await executor
    .select()
    .from(joinRequests)
    .where(
      and(eq(joinRequests.userId, userId), eq(joinRequests.phone, phone), eq(joinRequests.status, 'pending')),
    )
    .orderBy(desc(joinRequests.createdAt))
    .limit(1)
    .for('update');
  return row;
}

/** Closes every pending request of a phone at a business: confirmed (with the proof), cancelled or full. */
export async function settleJoinRequests(
  executor: Executor,
  userId: string,
  phone: string,
  outcome:
    | { status: 'confirmed'; confirmedAt: Date; confirmationMessageId: string; customerId: string }
    | { status: 'cancelled' | 'full' },
) {
  await executor
    .update(joinRequests)
    .set(outcome)
    .where(
      and(eq(joinRequests.userId, userId), eq(joinRequests.phone, phone), eq(joinRequests.status, 'pending')),
    );
}

/** How many requests a phone made at a business since `since` (joining by text is throttled on it). */
export async function joinRequestsSince(executor: Executor, userId: string, phone: string, since: Date) {
  const [row] = await executor
    .select({ count: sql<number>`count(*)::int` })
    .from(joinRequests)
    .where(
      and(eq(joinRequests.userId, userId), eq(joinRequests.phone, phone), gte(joinRequests.createdAt, since)),
    );
  return Number(row?.count ?? 0);
}

/**
 * Confirmation texts of a business since `since` that no YES answered (pending, or cancelled by STOP): what
 * the daily cap on unconfirmed texts counts (issue 24). Read under the owner's row lock.
 */
export async function unconfirmedJoinRequestsSince(executor: Executor, userId: string, since: Date) {
  const [row] = await executor
    .select({ count: sql<number>`count(*)::int` })
    .from(joinRequests)
    .where(
      and(
        eq(joinRequests.userId, userId),
        inArray(joinRequests.status, ['pending', 'cancelled']),
        gte(joinRequests.createdAt, since),
      ),
    );
  return Number(row?.count ?? 0);
}
