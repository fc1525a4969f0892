import { authMessages, type businessVerificationBody } from '@waitlist/contract';
import type { z } from 'zod';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { Conflict, Forbidden, Unauthorized } from '../../lib/errors.ts';
import * as repo from './auth.repo.ts';
import type { ProfileUpdate } from './auth.service.ts';
import { type AuthContext, adminAfter } from './auth-context.ts';
import { chargeCodeEmail, issueVerificationCode } from './verification-codes.ts';

/**
 * The owner's details: business verification and the profile, whose new address must be proved (email-
 * change.service.ts).
 */
export function profileCalls(ctx: AuthContext) {
  const { db, clock, limiter } = ctx;
  return {
    async submitBusinessVerification(userId: string, body: z.output<typeof businessVerificationBody>) {
      await db.transaction(async (tx) => {
        const row = await ctx.lockedUser(tx, userId);
        if (!row.verified) throw new Forbidden(authMessages.notVerified);
        await repo.updateUser(
          tx,
          userId,
          {
            businessName: body.businessName,
            businessPhone: body.businessPhone,
            businessVerificationStatus: 'submitted',
          },
          clock.now(),
        );
      });
    },

    /**
     * Writes only the profile fields (the mass-assignment allow-list). A new email address must be proved:
     * on a verified account it is kept as `pendingEmail` and a code goes to it, and the address changes only
     * when that code is entered (confirmEmail), so nobody takes an address they do not own (issue 12). An
     * account not verified yet has nothing to protect: its address is replaced and the new one gets the code.
     */
    async updateProfile(userId: string, changes: Partial<ProfileUpdate>) {
      const { email: requested, ...profile } = changes;
      const email = requested?.toLowerCase();
      const current = await repo.findUserById(db, userId);
      if (!current) throw new Unauthorized(authMessages.sessionExpired);
      if (email !== undefined && email !== current.email) {
        // Each change sends an email to an address the caller chose: the resend budget applies, and the
        // address's own budget (issue 24).
        if (await repo.findUserByEmail(db, email)) {
          throw new Conflict(authMessages.emailTaken, { email: authMessages.emailTaken });
        }
        await limiter.consume('sendVerificationAccount', userId);
        await chargeCodeEmail(ctx, email);
      }
      try {
        const result = await ctx.withOutbox(async (tx) => {
          // Decided from the locked row (issue 24): whether the account is verified, and its address, now.
          const row = await ctx.lockedUser(tx, userId);
          const emailChanged = email !== undefined && email !== row.email;
          // The address's budget was spent above only if it differed from the address read then.
          if (emailChanged && email === current.email) throw new Conflict(authMessages.emailChangedMeanwhile);
          const pending = emailChanged && row.verified;
          const updated = await repo.updateUser(
            tx,
            userId,
            {
              ...profile,
              ...(pending ? { pendingEmail: email } : {}),
              // An unverified account's address is replaced; it is not admin until it verifies the new one.
              ...(emailChanged && !pending
                ? { email, verified: false, pendingEmail: null, admin: adminAfter(ctx, row, email, false) }
                : {}),
            },
            clock.now(),
          );
          if (emailChanged) {
            await issueVerificationCode(ctx, tx, updated!, email);
            // A reset link mailed to the old address must not outlive the change.
            if (!pending) await repo.deleteUnusedResetsOfUser(tx, userId);
          }
          return {
            user: updated!,
            emailChange: pending ? ('pending' as const) : emailChanged ? ('replaced' as const) : undefined,
          };
        });
        return result;
      } catch (error) {
        if (isUniqueViolation(error))
          throw new Conflict(authMessages.emailTaken, { email: authMessages.emailTaken });
        throw error;
      }
    },
  };
}
