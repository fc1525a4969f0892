import { authMessages } from '@waitlist/contract';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { BadRequest, Conflict } from '../../lib/errors.ts';
import * as repo from './auth.repo.ts';
import { type AuthContext, adminAfter } from './auth-context.ts';
import { useCode } from './verification-codes.ts';

/**
 * A verified account's change of address: the code sent to the new address entered, or the change dropped.
 */
export function emailChangeCalls(ctx: AuthContext) {
  const { db, clock, limiter } = ctx;
  return {
    /** Enters the code sent to the pending new address: the address becomes the account's (issue 12). */
    async confirmEmail(userId: string, code: string, ip: string) {
      await limiter.consume('verifyAccountIp', ip);
      await limiter.consume('verifyAccountAccount', userId);
      try {
        const outcome = await db.transaction(async (tx) => {
          // The new address is the locked row's pending one, and the code must have been sent to it (issue
          // 24): never the session's copy, which a request racing this one may have made stale.
          const row = await ctx.lockedUser(tx, userId);
          const newEmail = row.pendingEmail;
          if (!newEmail) return { error: authMessages.noPendingEmail, field: false };
          const error = await useCode(ctx, tx, userId, code, newEmail);
          if (error !== undefined) return { error, field: true };
          const updated = await repo.updateUser(
            tx,
            userId,
            { email: newEmail, pendingEmail: null, admin: adminAfter(ctx, row, newEmail, row.verified) },
            clock.now(),
          );
          // A reset link mailed to the old address must not outlive the change (issue 24).
          await repo.deleteUnusedResetsOfUser(tx, userId);
          return { error: undefined, user: updated! };
        });
        if (outcome.error !== undefined) {
          throw new BadRequest(
            outcome.error,
            outcome.field ? { verificationCode: outcome.error } : undefined,
          );
        }
        return outcome.user;
      } catch (error) {
        if (isUniqueViolation(error))
          throw new Conflict(authMessages.emailTaken, { email: authMessages.emailTaken });
        throw error;
      }
    },

    /** Drops a pending new address and its code; the account keeps its address. */
    async cancelEmailChange(userId: string) {
      return db.transaction(async (tx) => {
        const row = await ctx.lockedUser(tx, userId);
        if (!row.pendingEmail) throw new BadRequest(authMessages.noPendingEmail);
        await repo.deleteVerification(tx, userId);
        return (await repo.updateUser(tx, userId, { pendingEmail: null }, clock.now()))!;
      });
    },
  };
}
