import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { emailVerifications } from '../../db/schema.ts';

/** Email-verification codes (table `email_verifications`): one live code per user, bound to an address. */

/** The user's one live code, bound to `email`, the address it is sent to (issue 24); replaces any older one. */
export function upsertVerification(
  executor: Executor,
  userId: string,
  email: string,
  codeHash: string,
  expiresAt: Date,
) {
  return executor
    .insert(emailVerifications)
    .values({ userId, email, codeHash, expiresAt, failedAttempts: 0 })
    .onConflictDoUpdate({
      target: emailVerifications.userId,
      set: { email, codeHash, expiresAt, failedAttempts: 0, createdAt: sql`now()` },
    });
}

/** Reads the user's code row, locked, so two guesses at once cannot both spend the same attempt. */
export async function findVerificationForUpdate(executor: Executor, userId: string) {
  const [row] = await executor
    .select()
    .from(emailVerifications)
    .where(eq(emailVerifications.userId, userId))
    .for('update')
    .limit(1);
  return row;
}

export function recordFailedVerification(executor: Executor, userId: string) {
  return executor
    .update(emailVerifications)
    .set({ failedAttempts: sql`${emailVerifications.failedAttempts} + 1` })
    .where(eq(emailVerifications.userId, userId));
}

export function deleteVerification(executor: Executor, userId: string) {
  return executor.delete(emailVerifications).where(eq(emailVerifications.userId, userId));
}
