import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { smsOptOuts } from '../../db/schema.ts';

/**
 * The one home of `sms_opt_outs` (issue 24): a business's "do not text" list, one row per phone, written on
 * STOP from any path (a customer, a pending join request, a stranger) and removed only by the phone's own
 * START. It outlives the customers row: a customer removed and added again, or a number submitted again on the
 * join page, is still opted out. customers.opted_out mirrors it for the customer's rows (features/waitlist),
 * so the waitlist's own reads agree; every text is checked against this table itself.
 */

/** Records that `phone` asked the business to stop; true when it was not opted out before. */
export async function recordOptOut(executor: Executor, userId: string, phone: string, now: Date) {
  const rows = await executor
    .insert(smsOptOuts)
    .values({ userId, phone, optedOutAt: now })
    .onConflictDoNothing()
    .returning({ phone: smsOptOuts.phone });
  return rows.length === 1;
}

/** Removes the opt-out (the phone's START); true when there was one. */
export async function removeOptOut(executor: Executor, userId: string, phone: string) {
  const rows = await executor
    .delete(smsOptOuts)
    .where(and(eq(smsOptOuts.userId, userId), eq(smsOptOuts.phone, phone)))
    .returning({ phone: smsOptOuts.phone });
  return rows.length === 1;
}

/** Which of these phones opted out of the business, with when. */
export async function optOutsOf(
  executor: Executor,
  userId: string,
  phones: string[],
): Promise<Map<string, Date>> {
  if (phones.length === 0) return new Map();
  const rows = await executor
    .select({ phone: smsOptOuts.phone, optedOutAt: smsOptOuts.optedOutAt })
    .from(smsOptOuts)
    .where(and(eq(smsOptOuts.userId, userId), inArray(smsOptOuts.phone, [...new Set(phones)])));
  return new Map(rows.map((row) => [row.phone, row.optedOutAt]));
}

/** Whether one phone opted out of the business. */
export async function isOptedOut(executor: Executor, userId: string, phone: string) {
  return (await optOutsOf(executor, userId, [phone])).has(phone);
}

/**
 * "This phone opted out of this business" in SQL, for statements that queue or send a text in one go
 * (messaging.repo's fast paths and the delivery's last check): `userId` and `phone` are SQL expressions.
 */
export const optedOutSql = (userId: SQL, phone: SQL) =>
  sql`exists (select 1 from ${smsOptOuts} where ${smsOptOuts.userId} = ${userId} and ${smsOptOuts.phone} = ${phone})`;
