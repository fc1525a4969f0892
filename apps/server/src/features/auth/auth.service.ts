import { authMessages, type LoginBody, type RegisterBody, type updateDetailsBody } from '@waitlist/contract';
import type { z } from 'zod';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { Conflict, Unauthorized } from '../../lib/errors.ts';
import type { RateLimiter } from '../../lib/rate-limit.ts';
import { hashPassword, hashToken, verifyPassword } from '../../lib/secrets.ts';
import type { Session } from '../../plugins/authenticate.ts';
import * as repo from './auth.repo.ts';
import {
  createAuthContext,
  newAccountFields,
  passwordAttemptSucceeded,
  takePasswordAttempt,
} from './auth-context.ts';
import { emailChangeCalls } from './email-change.service.ts';
import { passwordCalls } from './passwords.service.ts';
import { profileCalls } from './profile.service.ts';
import { verificationCalls } from './verification.service.ts';
import { chargeCodeEmail, issueVerificationCode } from './verification-codes.ts';

export { issueSession, newAccountFields } from './auth-context.ts';

export type ProfileUpdate = z.output<typeof updateDetailsBody>;
export type { Session };

export interface AuthServiceDeps {
  db: Database;
  clock: Clock;
  limiter: RateLimiter;
  /** Called after a transaction that queued email commits, so the outbox worker delivers it now. */
  onOutboxWrite: () => void;
  publicUrl: string;
  adminEmails: string[];
  /** Runs before an account is deleted, e.g. billing ends its subscription so nothing is charged after. */
  beforeAccountDeleted?: (user: repo.UserRow) => Promise<void>;
}

export type AuthService = ReturnType<typeof createAuthService>;

/**
 * Accounts and sign-in. By concern: sessions and sign-in here; passwords (passwords.service.ts), the
 * address's verification (verification.service.ts), the profile (profile.service.ts) and a change of
 * address (email-change.service.ts), each built from one shared context (auth-context.ts).
 */
export function createAuthService(deps: AuthServiceDeps) {
  const ctx = createAuthContext(deps);
  const { db, clock, limiter } = ctx;
  // Hashing a password for an unknown email keeps login's timing from revealing which emails exist.
  let dummyHash: Promise<string> | undefined;
  const sessionQueries = repo.prepareSessionQueries(db);

  return {
    async register(body: RegisterBody, ip: string) {
      // Sign-up sends an email to an address the caller chose: a budget per address (issue 12).
      await limiter.consume('registerIp', ip);
      const email = body.email.toLowerCase();
      // An address with an account gets no code from a sign-up (it answers 409 below), so spends nothing:
      // nobody can use sign-ups to empty an owner's code budget.
      if (!(await repo.findUserByEmail(db, email))) await chargeCodeEmail(ctx, email);
      const passwordHash = await hashPassword(body.password);
      const now = clock.now();
      return ctx.withOutbox(async (tx) => {
        const user = await repo.insertUser(tx, {
          ...newAccountFields(now, email, ctx.adminEmails, false),
          firstName: body.firstName,
          lastName: body.lastName,
          passwordHash,
        });
        if (!user) throw new Conflict(authMessages.emailTaken, { email: authMessages.emailTaken });
        await issueVerificationCode(ctx, tx, user, email);
        const { token } = await ctx.createSession(tx, user.id);
        return { token, user };
      });
    },

    async login(body: LoginBody, ip: string) {
      const email = body.email.toLowerCase();
      // Failures only are counted (issue 12): per account and address, per address, and a slower
      // ceiling per account, so failures from one address never lock the owner out of another.
      await takePasswordAttempt(ctx, email, ip);
      const user = await repo.findUserByEmail(db, email);
      if (!user?.passwordHash) {
        dummyHash ??= hashPassword('not-a-real-password');
        await verifyPassword(await dummyHash, body.password);
        throw new Unauthorized(authMessages.invalidCredentials);
      }
      if (!(await verifyPassword(user.passwordHash, body.password))) {
        throw new Unauthorized(authMessages.invalidCredentials);
      }
      await passwordAttemptSucceeded(ctx, email, ip);
      const { token } = await ctx.createSession(db, user.id);
      return { token, user };
    },

    async authenticate(token: string): Promise<Session | undefined> {
      const row = await sessionQueries.sessionUser(hashToken(token), clock.now());
      return row && { user: row.user, sessionId: row.sessionId };
    },

    /** GET /auth/me in one prepared query that reads only the answer's columns; undefined: no live session. */
    me(token: string) {
      return sessionQueries.sessionUserJson(hashToken(token), clock.now());
    },

    async logout(sessionId: string) {
      await repo.deleteSession(db, sessionId);
    },

    ...passwordCalls(ctx),
    ...verificationCalls(ctx),
    ...profileCalls(ctx),
    ...emailChangeCalls(ctx),

    async deleteAccount(userId: string) {
      // Billing reads the row as it is now (its subscription is ended before the row goes).
      const row = await repo.findUserById(db, userId);
      if (!row) return;
      await ctx.beforeAccountDeleted?.(row);
      // Sessions, codes and reset tokens go with the user (ON DELETE CASCADE).
      await repo.deleteUser(db, userId);
    },

    async grantAdmins(emails: string[]) {
      return repo.grantAdmin(
        db,
        emails.map((email) => email.toLowerCase()),
      );
    },
  };
}
