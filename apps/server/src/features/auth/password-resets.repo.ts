import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { passwordResets } from '../../db/schema.ts';

/** Password reset tokens (table `password_resets`): single use, stored as hashes. */

export function insertPasswordReset(executor: Executor, userId: string, tokenHash: string, expiresAt: Date) {
  return executor.insert(passwordResets).values({ userId, tokenHash, expiresAt });
}

/** Marks a live, unused token used and returns its user id: single use, even under concurrent submits. */
export async function consumePasswordReset(executor: Executor, tokenHash: string, now: Date) {
  const [row] = await executor
    .update(passwordResets)
    .set({ usedAt: now })
    .where(
      and(
        eq(passwordResets.tokenHash, tokenHash),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, now),
      ),
    )
    .returning({ userId: passwordResets.userId });
  return row;
}

export function deleteUnusedResetsOfUser(executor: Executor, userId: string) {
  return executor
    .delete(passwordResets)
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}
