import { authMessages } from '@waitlist/contract';
import { BadRequest, Unauthorized } from '../../lib/errors.ts';
import * as repo from './auth.repo.ts';
import { type AuthContext, adminAfter } from './auth-context.ts';
import { chargeCodeEmail, codeRecipient, issueVerificationCode, useCode } from './verification-codes.ts';

/** Verifying the account's address: a code sent (or sent again), and the code entered. */
export function verificationCalls(ctx: AuthContext) {
  const { db, clock, limiter } = ctx;
  return {
    /**
     * A new code to the unverified account's address, or to the pending new address of a verified one. The
     * address is the locked row's (issue 24); the session's copy only names the budget to spend.
     */
    async sendVerification(userId: string, ip: string) {
      const current = await repo.findUserById(db, userId);
      if (!current) throw new Unauthorized(authMessages.sessionExpired);
      if (current.verified && !current.pendingEmail) throw new BadRequest(authMessages.alreadyVerified);
      await limiter.consume('sendVerificationIp', ip);
      await limiter.consume('sendVerificationAccount', userId);
      const recipient = codeRecipient(current);
      await chargeCodeEmail(ctx, recipient);
      await ctx.withOutbox(async (tx) => {
        const row = await ctx.lockedUser(tx, userId);
        if (row.verified && !row.pendingEmail) throw new BadRequest(authMessages.alreadyVerified);
        await issueVerificationCode(ctx, tx, row, recipient);
      });
    },

    /**
     * Verifies the account's address with the code emailed to it. Everything is decided from the row locked
     * in the transaction (issue 24): the code must have been sent to the address the row has now, and admin is
     * computed from the row as written.
     */
    async verifyAccount(userId: string, code: string, ip: string) {
      await limiter.consume('verifyAccountIp', ip);
      await limiter.consume('verifyAccountAccount', userId);
      // The outcome is decided inside the transaction and thrown after it commits, so a wrong guess
      // is counted even though the request fails.
      const outcome = await db.transaction(async (tx) => {
        const row = await ctx.lockedUser(tx, userId);
        if (row.verified) return { error: authMessages.alreadyVerified, field: false };
        const error = await useCode(ctx, tx, userId, code, row.email);
        if (error !== undefined) return { error, field: true };
        // A listed address becomes admin only now that its owner has proved it (issue 12).
        const admin = adminAfter(ctx, row, row.email, true);
        return {
          error: undefined,
          user: await repo.updateUser(tx, userId, { verified: true, admin }, clock.now()),
        };
      });
      if (outcome.error !== undefined) {
        throw new BadRequest(outcome.error, outcome.field ? { verificationCode: outcome.error } : undefined);
      }
      return outcome.user!;
    },
  };
}
