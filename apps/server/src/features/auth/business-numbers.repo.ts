import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { NumberChange } from '../../db/rows.ts';
import { users } from '../../db/schema.ts';

/**
 * The dedicated number on `users` (features/messaging reads and sets it through wiring.ts's businessNumbers).
 */

/** The business's texting number and its state. */
export async function findSender(executor: Executor, userId: string) {
  const [user] = await executor
    .select({
      id: users.id,
      businessName: users.businessName,
      plivoNumber: users.plivoNumber,
      plivoNumberStatus: users.plivoNumberStatus,
      plivoNumberError: users.plivoNumberError,
      plainSpanishLetters: users.plainSpanishLetters,
    })
    .from(users)
    .where(eq(users.id, userId));
  return user;
}

/**
 * Claims the right to rent a number for the business (issue 24: a burst of requests must rent one number,
 * not one each): true for the one caller that moved the row to "pending, no number yet". Taken when the
 * business has no number (or its last request failed); a claim left behind by a crash is taken again after
 * `staleAfter`.
 */
export async function claimNumberRequest(executor: Executor, userId: string, now: Date, staleAfter: Date) {
  const rows = await executor
    .update(users)
    .set({ plivoNumber: null, plivoNumberStatus: 'pending', plivoNumberError: null, updatedAt: now })
    .where(
      and(
        eq(users.id, userId),
        sql`(${users.plivoNumberStatus} = 'failed' or (${users.plivoNumber} is null and (${users.plivoNumberStatus} is null or ${users.updatedAt} < ${staleAfter})))`,
      ),
    )
    .returning({ id: users.id });
  return rows.length === 1;
}

export function setPhoneNumber(executor: Executor, userId: string, values: NumberChange, now: Date) {
  return executor
    .update(users)
    .set({ ...values, updatedAt: now })
    .where(eq(users.id, userId));
}
