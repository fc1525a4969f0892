import {
  authMessages,
  type businessVerificationBody,
  type LoginBody,
  RESET_TOKEN_TTL_MINUTES,
  type RegisterBody,
  TRIAL_DAYS,
  type UpdatePasswordBody,
  type updateDetailsBody,
  VERIFICATION_CODE_MAX_ATTEMPTS,
  VERIFICATION_CODE_TTL_MINUTES,
} from '@waitlist/contract';
import type { z } from 'zod';
import type { Database, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { BadRequest, Conflict, Forbidden, Unauthorized } from '../../lib/errors.ts';
import type { RateLimiter } from '../../lib/rate-limit.ts';
import {
  generateToken,
  generateVerificationCode,
  hashPassword,
  hashToken,
  sameHash,
  verifyPassword,
} from '../../lib/secrets.ts';
import { enqueueEmail } from '../../outbox/index.ts';
import type { Session } from '../../plugins/authenticate.ts';
import {
  emailChangeCodeEmail,
  passwordChangedEmail,
  passwordResetEmail,
  socialAccountPasswordEmail,
  verificationCodeEmail,
} from './auth.emails.ts';
import * as repo from './auth.repo.ts';

const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

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

/** Starts a session: the caller gets the token, the database keeps only its hash. Every sign-in uses this. */
export async function issueSession(
  executor: Executor,
  clock: Clock,
  userId: string,
): Promise<{ token: string }> {
  const token = generateToken();
  await repo.insertSession(
    executor,
    userId,
    hashToken(token),
    new Date(clock.now().getTime() + SESSION_TTL_MS),
  );
  return { token };
}

/**
 * What every new account starts with, however it signs up: the 7-day trial from now, and admin only for a
 * listed email that is verified (issue 12); an unverified one becomes admin when it is verified.
 */
export function newAccountFields(now: Date, email: string, adminEmails: string[], verified: boolean) {
  return {
    email,
    admin: verified && adminEmails.includes(email),
    trialEndDate: new Date(now.getTime() + TRIAL_DAYS * DAY_MS),
    createdAt: now,
    updatedAt: now,
  };
}

export function createAuthService(deps: AuthServiceDeps) {
  const { db, clock, limiter } = deps;
  // Hashing a password for an unknown email keeps login's timing from revealing which emails exist.
  let dummyHash: Promise<string> | undefined;

  const createSession = (executor: Executor, userId: string) => issueSession(executor, clock, userId);
  const sessionQueries = repo.prepareSessionQueries(db);

  /**
   * Where a code for this row goes: the pending new address of a verified account (its own address is
   * untouched until the code comes back), else the account's address.
   */
  const codeRecipient = (user: repo.UserRow) =>
    user.verified && user.pendingEmail ? user.pendingEmail : user.email;

  /**
   * Spends one code email to `recipient` from its per-address budget (issue 24: no mail bombing of an
   * address through several accounts), before any transaction: the limiter has its own connection.
   */
  async function chargeCodeEmail(recipient: string) {
    await limiter.take([
      ['codeEmailRecipient', recipient],
      ['codeEmailRecipientDaily', recipient],
    ]);
  }

  /**
   * Emails a new code for `user`, a row locked in `executor`'s transaction, and binds it to the address it
   * goes to. `charged` is the address whose budget was spent for it: when the row now names another (it
   * changed while the request was on its way), nothing is sent.
   */
  async function issueVerificationCode(executor: Executor, user: repo.UserRow, charged: string) {
    const recipient = codeRecipient(user);
    if (recipient !== charged) throw new Conflict(authMessages.emailChangedMeanwhile);
    const code = generateVerificationCode();
    const expiresAt = new Date(clock.now().getTime() + VERIFICATION_CODE_TTL_MINUTES * MINUTE_MS);
    await repo.upsertVerification(executor, user.id, recipient, hashToken(code), expiresAt);
    const message =
      recipient === user.email
        ? verificationCodeEmail(recipient, user.firstName, code)
        : emailChangeCodeEmail(recipient, user.firstName, code);
    await enqueueEmail(executor, message, clock.now());
  }

  /** The user's row, locked until `tx` ends: every write below decides from it, never from the session's copy. */
  async function lockedUser(tx: Executor, userId: string) {
    const row = await repo.lockUser(tx, userId);
    if (!row) throw new Unauthorized(authMessages.sessionExpired);
    return row;
  }

  /**
   * Checks `code` against the user's live code inside `tx`: undefined when it matches and was sent to
   * `address` (the code is then used up), else the message to answer with. A wrong guess is recorded, so it
   * counts even though the request fails once the transaction commits.
   */
  async function useCode(
    tx: Executor,
    userId: string,
    code: string,
    address: string,
  ): Promise<string | undefined> {
    const pending = await repo.findVerificationForUpdate(tx, userId);
    if (!pending || pending.expiresAt <= clock.now()) return authMessages.codeExpired;
    if (pending.failedAttempts >= VERIFICATION_CODE_MAX_ATTEMPTS) return authMessages.codeBurned;
    // A code proves only the address it was emailed to (issue 24): the row's address may have changed since.
    if (pending.email !== address) return authMessages.codeForOtherAddress;
    if (!sameHash(pending.codeHash, hashToken(code))) {
      await repo.recordFailedVerification(tx, userId);
      const left = VERIFICATION_CODE_MAX_ATTEMPTS - pending.failedAttempts - 1;
      return left > 0
        ? `${authMessages.codeInvalid}. ${left} attempt${left === 1 ? '' : 's'} left.`
        : authMessages.codeBurned;
    }
    await repo.deleteVerification(tx, userId);
    return undefined;
  }

  /**
   * Admin as the row will be written (issues 12 and 24): a listed address is admin once verified; a grant that
   * came from the list leaves with the address; a grant by `npm run admin` stays with the account. `row` is
   * the locked row before the write, `email` and `verified` what it is written with.
   */
  function adminAfter(row: repo.UserRow, email: string, verified: boolean): boolean {
    if (!verified) return false;
    if (deps.adminEmails.includes(email)) return true;
    if (deps.adminEmails.includes(row.email)) return false;
    return row.admin;
  }

  /**
   * Takes one password attempt from the login throttle before the password is verified (issue 24): per
   * account and address, per address, and per account over every address. Taking the point first, in one
   * atomic step per counter, makes a parallel burst meet the same limit as a sequence; a success gives it
   * back. Failures from one address never lock the owner out of another (issue 12).
   */
  async function takePasswordAttempt(email: string, ip: string) {
    await limiter.take([
      ['loginAccountIp', `${email} ${ip}`],
      ['loginIp', ip],
      ['loginAccount', email],
    ]);
  }

  async function passwordAttemptSucceeded(email: string, ip: string) {
    await Promise.all([
      limiter.reset('loginAccountIp', `${email} ${ip}`),
      limiter.refund('loginIp', ip),
      limiter.refund('loginAccount', email),
    ]);
  }

  /** Runs `work` in one transaction; email it queued is delivered only if the transaction commits. */
  async function withOutbox<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
    const result = await db.transaction(work);
    deps.onOutboxWrite();
    return result;
  }

  return {
    async register(body: RegisterBody, ip: string) {
      // Sign-up sends an email to an address the caller chose: a budget per address (issue 12).
      await limiter.consume('registerIp', ip);
      const email = body.email.toLowerCase();
      // An address with an account gets no code from a sign-up (it answers 409 below), so spends nothing:
      // nobody can use sign-ups to empty an owner's code budget.
      if (!(await repo.findUserByEmail(db, email))) await chargeCodeEmail(email);
      const passwordHash = await hashPassword(body.password);
      const now = clock.now();
      return withOutbox(async (tx) => {
        const user = await repo.insertUser(tx, {
          ...newAccountFields(now, email, deps.adminEmails, false),
          firstName: body.firstName,
          lastName: body.lastName,
          passwordHash,
        });
        if (!user) throw new Conflict(authMessages.emailTaken, { email: authMessages.emailTaken });
        await issueVerificationCode(tx, user, email);
        const { token } = await createSession(tx, user.id);
        return { token, user };
      });
    },

    async login(body: LoginBody, ip: string) {
      const email = body.email.toLowerCase();
      // Failures only are counted (issue 12): per account and address, per address, and a slower
      // ceiling per account, so failures from one address never lock the owner out of another.
      await takePasswordAttempt(email, ip);
      const user = await repo.findUserByEmail(db, email);
      if (!user?.passwordHash) {
        dummyHash ??= hashPassword('not-a-real-password');
        await verifyPassword(await dummyHash, body.password);
        throw new Unauthorized(authMessages.invalidCredentials);
      }
      if (!(await verifyPassword(user.passwordHash, body.password))) {
        throw new Unauthorized(authMessages.invalidCredentials);
      }
      await passwordAttemptSucceeded(email, ip);
      const { token } = await createSession(db, user.id);
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
        await withOutbox((tx) =>
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
      await withOutbox(async (tx) => {
        await repo.insertPasswordReset(tx, user.id, hashToken(token), expiresAt);
        await enqueueEmail(
          tx,
          passwordResetEmail(
            user.email,
            user.firstName,
            `${deps.publicUrl}/reset-password/${encodeURIComponent(token)}`,
          ),
          clock.now(),
        );
      });
    },

    async resetPassword(token: string, password: string) {
      const passwordHash = await hashPassword(password);
      await db.transaction(async (tx) => {
        const reset = await repo.consumePasswordReset(tx, hashToken(token), clock.now());
        if (!reset) throw new BadRequest(authMessages.resetTokenInvalid);
        await repo.updateUser(tx, reset.userId, { passwordHash }, clock.now());
        // A reset means the old password may be known to someone else: sign every session out.
        await repo.deleteSessionsOfUser(tx, reset.userId);
        await repo.deleteUnusedResetsOfUser(tx, reset.userId);
      });
    },

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
      await chargeCodeEmail(recipient);
      await withOutbox(async (tx) => {
        const row = await lockedUser(tx, userId);
        if (row.verified && !row.pendingEmail) throw new BadRequest(authMessages.alreadyVerified);
        await issueVerificationCode(tx, row, recipient);
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
        const row = await lockedUser(tx, userId);
        if (row.verified) return { error: authMessages.alreadyVerified, field: false };
        const error = await useCode(tx, userId, code, row.email);
        if (error !== undefined) return { error, field: true };
        // A listed address becomes admin only now that its owner has proved it (issue 12).
        const admin = adminAfter(row, row.email, true);
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

    async submitBusinessVerification(userId: string, body: z.output<typeof businessVerificationBody>) {
      await db.transaction(async (tx) => {
        const row = await lockedUser(tx, userId);
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
        await chargeCodeEmail(email);
      }
      try {
        const result = await withOutbox(async (tx) => {
          // Decided from the locked row (issue 24): whether the account is verified, and its address, now.
          const row = await lockedUser(tx, userId);
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
                ? { email, verified: false, pendingEmail: null, admin: adminAfter(row, email, false) }
                : {}),
            },
            clock.now(),
          );
          if (emailChanged) {
            await issueVerificationCode(tx, updated!, email);
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

    /** Enters the code sent to the pending new address: the address becomes the account's (issue 12). */
    async confirmEmail(userId: string, code: string, ip: string) {
      await limiter.consume('verifyAccountIp', ip);
      await limiter.consume('verifyAccountAccount', userId);
      try {
        const outcome = await db.transaction(async (tx) => {
          // The new address is the locked row's pending one, and the code must have been sent to it (issue
          // 24): never the session's copy, which a request racing this one may have made stale.
          const row = await lockedUser(tx, userId);
          const newEmail = row.pendingEmail;
          if (!newEmail) return { error: authMessages.noPendingEmail, field: false };
          const error = await useCode(tx, userId, code, newEmail);
          if (error !== undefined) return { error, field: true };
          const updated = await repo.updateUser(
            tx,
            userId,
            { email: newEmail, pendingEmail: null, admin: adminAfter(row, newEmail, row.verified) },
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
        const row = await lockedUser(tx, userId);
        if (!row.pendingEmail) throw new BadRequest(authMessages.noPendingEmail);
        await repo.deleteVerification(tx, userId);
        return (await repo.updateUser(tx, userId, { pendingEmail: null }, clock.now()))!;
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
      await takePasswordAttempt(current.email, ip);
      if (!(await verifyPassword(current.passwordHash, body.currentPassword))) {
        throw new Unauthorized(authMessages.currentPasswordIncorrect);
      }
      await passwordAttemptSucceeded(current.email, ip);
      const passwordHash = await hashPassword(body.newPassword);
      // This device stays signed in; every other session is signed out.
      await withOutbox(async (tx) => {
        const row = await lockedUser(tx, session.userId);
        // Another request changed the password since it was checked: the one checked is no longer current.
        if (row.passwordHash !== current.passwordHash)
          throw new Unauthorized(authMessages.currentPasswordIncorrect);
        await repo.updateUser(tx, row.id, { passwordHash }, clock.now());
        await repo.deleteSessionsOfUser(tx, row.id, session.sessionId);
        // A reset link asked for before the change must not undo it (issue 24).
        await repo.deleteUnusedResetsOfUser(tx, row.id);
        await enqueueEmail(tx, passwordChangedEmail(row.email, row.firstName), clock.now());
      });
    },

    async deleteAccount(userId: string) {
      // Billing reads the row as it is now (its subscription is ended before the row goes).
      const row = await repo.findUserById(db, userId);
      if (!row) return;
      await deps.beforeAccountDeleted?.(row);
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
