import { authMessages, RESET_TOKEN_TTL_MINUTES, type UpdatePasswordBody } from '@waitlist/contract';
import { BadRequest, Unauthorized } from '../../lib/errors.ts';
import { generateToken, hashPassword, hashToken, verifyPassword } from '../../lib/secrets.ts';
import { enqueueEmail } from '../../outbox/index.ts';
import type { Session } from '../../plugins/authenticate.ts';
import { passwordChangedEmail, passwordResetEmail, socialAccountPasswordEmail } from './auth.emails.ts';
import * as repo from './auth.repo.ts';
import { type AuthContext, passwordAttemptSucceeded, takePasswordAttempt } from './auth-context.ts';

const MINUTE_MS = 60_000;

/** Passwords: the reset link asked for by email, the reset itself, and a change with the current password. */
export function passwordCalls(ctx: AuthContext) {
  const { db, clock, limiter } = ctx;
  return {
    /** Answers the same whether or not the email exists, so it cannot be used to find accounts. */
    async forgotPassword(rawEmail: string, ip: string) {
      const email = rawEmail.toLowerCase();
      await limiter.consume('forgotPasswordIp', ip);
      // Never 429 on the account (issue 24): that would let anyone block the owner's own reset. Past the
      // account's budgets the answer is the same and no email goes.
      if (!(await limiter.tryConsume('forgotPasswordAccountIp', `${email} ${ip}`))) return;
      if (!(await limiter.tryConsume('forgotPasswordAccount', email))) return;
      const user = await repo.findUserByEmail(db, email);
      if (!user) return;
      if (!user.passwordHash) {
        // A social-only account has no password to reset, and a reset link must not give it one
        // (decision 0006): the owner is told which button to use instead. The answer stays the same.
        await ctx.withOutbox((tx) =>
          enqueueEmail(
            tx,
            socialAccountPasswordEmail(user.email, user.firstName, user.provider),
            clock.now(),
          ),
        );
        return;
      }
      const token = generateToken();
      const expiresAt = new Date(clock.now().getTime() + RESET_TOKEN_TTL_MINUTES * MINUTE_MS);
      await ctx.withOutbox(async (tx) => {
        await repo.insertPasswordReset(tx, user.id, hashToken(token), expiresAt);
        await enqueueEmail(
          tx,
          passwordResetEmail(
            user.email,
            user.firstName,
            `${ctx.publicUrl}/reset-password/${encodeURIComponent(token)}`,
          ),
          clock.now(),
        );
      });
    },

    async resetPassword(token: string, password: string) {
      const passwordHash = await hashPassword(password);
      await ctx.withOutbox(async (tx) => {
        const reset = await repo.consumePasswordReset(tx, hashToken(token), clock.now());
        if (!reset) throw new BadRequest(authMessages.resetTokenInvalid);
        const row = await ctx.lockedUser(tx, reset.userId);
        await repo.updateUser(tx, row.id, { passwordHash }, clock.now());
        // A reset means the old password may be known to someone else: sign every session out.
        await repo.deleteSessionsOfUser(tx, row.id);
        await repo.deleteUnusedResetsOfUser(tx, row.id);
        // The owner hears of it in the same transaction: no email for a reset that did not happen (issue 27).
        await enqueueEmail(tx, passwordChangedEmail(row, clock.now(), ctx.publicUrl), clock.now());
      });
    },

    /**
     * Changes the password after checking the current one. Wrong current passwords go through the login
     * throttle (issue 24), and the hash checked must still be the row's when the change is written.
     */
    async updatePassword(
      session: Pick<Session, 'sessionId'> & { userId: string },
      body: UpdatePasswordBody,
      ip: string,
    ) {
      const current = await repo.findUserById(db, session.userId);
      if (!current) throw new Unauthorized(authMessages.sessionExpired);
      if (current.isExternalAuth || !current.passwordHash)
        throw new BadRequest(authMessages.externalCannotChangePassword);
      await takePasswordAttempt(ctx, current.email, ip);
      if (!(await verifyPassword(current.passwordHash, body.currentPassword))) {
        throw new Unauthorized(authMessages.currentPasswordIncorrect);
      }
      await passwordAttemptSucceeded(ctx, current.email, ip);
      const passwordHash = await hashPassword(body.newPassword);
      // This device stays signed in; every other session is signed out.
      await ctx.withOutbox(async (tx) => {
        const row = await ctx.lockedUser(tx, session.userId);
        // Another request changed the password since it was checked: the one checked is no longer current.
        if (row.passwordHash !== current.passwordHash)
          throw new Unauthorized(authMessages.currentPasswordIncorrect);
        await repo.updateUser(tx, row.id, { passwordHash }, clock.now());
        await repo.deleteSessionsOfUser(tx, row.id, session.sessionId);
        // A reset link asked for before the change must not undo it (issue 24).
        await repo.deleteUnusedResetsOfUser(tx, row.id);
        await enqueueEmail(tx, passwordChangedEmail(row, clock.now(), ctx.publicUrl), clock.now());
      });
    },
  };
}
