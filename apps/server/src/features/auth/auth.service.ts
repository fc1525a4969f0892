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

  async function issueVerificationCode(executor: Executor, user: repo.UserRow) {
    const code = generateVerificationCode();
    const expiresAt = new Date(clock.now().getTime() + VERIFICATION_CODE_TTL_MINUTES * MINUTE_MS);
    await repo.upsertVerification(executor, user.id, hashToken(code), expiresAt);
    // A pending new address of a verified account gets its own code; the account's address is untouched.
    const message =
      user.verified && user.pendingEmail
        ? emailChangeCodeEmail(user.pendingEmail, user.firstName, code)
        : verificationCodeEmail(user.email, user.firstName, code);
    await enqueueEmail(executor, message, clock.now());
  }

  /**
   * Checks `code` against the user's live code inside `tx`: undefined when it matches (the code is then
   * used up), else the message to answer with. A wrong guess is recorded, so it counts even though the
   * request fails once the transaction commits.
   */
  async function useCode(tx: Executor, userId: string, code: string): Promise<string | undefined> {
    const pending = await repo.findVerificationForUpdate(tx, userId);
    if (!pending || pending.expiresAt <= clock.now()) return authMessages.codeExpired;
    if (pending.failedAttempts >= VERIFICATION_CODE_MAX_ATTEMPTS) return authMessages.codeBurned;
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

  /** Admin follows the verified address (issue 12): listed → admin; a grant from the list leaves with it. */
  function adminFor(user: repo.UserRow, newEmail: string): boolean {
    if (deps.adminEmails.includes(newEmail)) return true;
    if (deps.adminEmails.includes(user.email)) return false;
    return user.admin;
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
      const passwordHash = await hashPassword(body.password);
      const now = clock.now();
      const email = body.email.toLowerCase();
      return withOutbox(async (tx) => {
        const user = await repo.insertUser(tx, {
          ...newAccountFields(now, email, deps.adminEmails, false),
          firstName: body.firstName,
          lastName: body.lastName,
          passwordHash,
        });
        if (!user) throw new Conflict(authMessages.emailTaken, { email: authMessages.emailTaken });
        await issueVerificationCode(tx, user);
        const { token } = await createSession(tx, user.id);
        return { token, user };
      });
    },

    async login(body: LoginBody, ip: string) {
      const email = body.email.toLowerCase();
      // Failures only are counted (issue 12): per account and address, per address, and a slower
      // ceiling per account, so failures from one address never lock the owner out of another.
      const pair = `${email} ${ip}`;
      await limiter.check('loginIp', ip);
      await limiter.check('loginAccountIp', pair);
      await limiter.check('loginAccount', email);
      const failed = async () => {
        await limiter.fail('loginIp', ip);
        await limiter.fail('loginAccountIp', pair);
        await limiter.fail('loginAccount', email);
        return new Unauthorized(authMessages.invalidCredentials);
      };
      const user = await repo.findUserByEmail(db, email);
      if (!user?.passwordHash) {
        dummyHash ??= hashPassword('not-a-real-password');
        await verifyPassword(await dummyHash, body.password);
        throw await failed();
      }
      if (!(await verifyPassword(user.passwordHash, body.password))) {
        throw await failed();
      }
      await limiter.reset('loginAccountIp', pair);
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
      await limiter.consume('forgotPasswordAccount', email);
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

    /** A new code to the unverified account's address, or to the pending new address of a verified one. */
    async sendVerification(user: repo.UserRow, ip: string) {
      if (user.verified && !user.pendingEmail) throw new BadRequest(authMessages.alreadyVerified);
      await limiter.consume('sendVerificationIp', ip);
      await limiter.consume('sendVerificationAccount', user.id);
      await withOutbox((tx) => issueVerificationCode(tx, user));
    },

    async verifyAccount(user: repo.UserRow, code: string, ip: string) {
      if (user.verified) throw new BadRequest(authMessages.alreadyVerified);
      await limiter.consume('verifyAccountIp', ip);
      await limiter.consume('verifyAccountAccount', user.id);
      // The outcome is decided inside the transaction and thrown after it commits, so a wrong guess
      // is counted even though the request fails.
      const outcome = await db.transaction(async (tx) => {
        const error = await useCode(tx, user.id, code);
        if (error !== undefined) return { error };
        // A listed address becomes admin only now that its owner has proved it (issue 12).
        const admin = deps.adminEmails.includes(user.email) || user.admin;
        return {
          error: undefined,
          user: await repo.updateUser(tx, user.id, { verified: true, admin }, clock.now()),
        };
      });
      if (outcome.error !== undefined) {
        throw new BadRequest(outcome.error, { verificationCode: outcome.error });
      }
      return outcome.user!;
    },

    async submitBusinessVerification(user: repo.UserRow, body: z.output<typeof businessVerificationBody>) {
      if (!user.verified) throw new Forbidden(authMessages.notVerified);
      await repo.updateUser(
        db,
        user.id,
        {
          businessName: body.businessName,
          businessPhone: body.businessPhone,
          businessVerificationStatus: 'submitted',
        },
        clock.now(),
      );
    },

    /**
     * Writes only the profile fields (the mass-assignment allow-list). A new email address must be proved:
     * on a verified account it is kept as `pendingEmail` and a code goes to it, and the address changes only
     * when that code is entered (confirmEmail), so nobody takes an address they do not own (issue 12). An
     * account not verified yet has nothing to protect: its address is replaced and the new one gets the code.
     */
    async updateProfile(user: repo.UserRow, changes: Partial<ProfileUpdate>) {
      const { email: requested, ...profile } = changes;
      const email = requested?.toLowerCase();
      const emailChanged = email !== undefined && email !== user.email;
      if (emailChanged) {
        // Each change sends an email to an address the caller chose: the resend budget applies.
        await limiter.consume('sendVerificationAccount', user.id);
        if (user.verified && (await repo.findUserByEmail(db, email))) {
          throw new Conflict(authMessages.emailTaken, { email: authMessages.emailTaken });
        }
      }
      const pending = emailChanged && user.verified;
      try {
        const updated = await withOutbox(async (tx) => {
          const row = await repo.updateUser(
            tx,
            user.id,
            {
              ...profile,
              ...(pending ? { pendingEmail: email } : {}),
              ...(emailChanged && !pending ? { email, verified: false, pendingEmail: null } : {}),
            },
            clock.now(),
          );
          if (emailChanged) await issueVerificationCode(tx, row!);
          return row!;
        });
        return {
          user: updated,
          emailChange: pending ? ('pending' as const) : emailChanged ? ('replaced' as const) : undefined,
        };
      } catch (error) {
        if (isUniqueViolation(error))
          throw new Conflict(authMessages.emailTaken, { email: authMessages.emailTaken });
        throw error;
      }
    },

    /** Enters the code sent to the pending new address: the address becomes the account's (issue 12). */
    async confirmEmail(user: repo.UserRow, code: string, ip: string) {
      const newEmail = user.pendingEmail;
      if (!newEmail) throw new BadRequest(authMessages.noPendingEmail);
      await limiter.consume('verifyAccountIp', ip);
      await limiter.consume('verifyAccountAccount', user.id);
      try {
        const outcome = await db.transaction(async (tx) => {
          const error = await useCode(tx, user.id, code);
          if (error !== undefined) return { error };
          const row = await repo.updateUser(
            tx,
            user.id,
            { email: newEmail, pendingEmail: null, admin: adminFor(user, newEmail) },
            clock.now(),
          );
          return { error: undefined, user: row! };
        });
        if (outcome.error !== undefined) {
          throw new BadRequest(outcome.error, { verificationCode: outcome.error });
        }
        return outcome.user;
      } catch (error) {
        if (isUniqueViolation(error))
          throw new Conflict(authMessages.emailTaken, { email: authMessages.emailTaken });
        throw error;
      }
    },

    /** Drops a pending new address and its code; the account keeps its address. */
    async cancelEmailChange(user: repo.UserRow) {
      if (!user.pendingEmail) throw new BadRequest(authMessages.noPendingEmail);
      return db.transaction(async (tx) => {
        await repo.deleteVerification(tx, user.id);
        return (await repo.updateUser(tx, user.id, { pendingEmail: null }, clock.now()))!;
      });
    },

    async updatePassword(session: Session, body: UpdatePasswordBody) {
      const { user } = session;
      if (user.isExternalAuth || !user.passwordHash)
        throw new BadRequest(authMessages.externalCannotChangePassword);
      if (!(await verifyPassword(user.passwordHash, body.currentPassword))) {
        throw new Unauthorized(authMessages.currentPasswordIncorrect);
      }
      const passwordHash = await hashPassword(body.newPassword);
      // This device stays signed in; every other session is signed out.
      await withOutbox(async (tx) => {
        await repo.updateUser(tx, user.id, { passwordHash }, clock.now());
        await repo.deleteSessionsOfUser(tx, user.id, session.sessionId);
        await enqueueEmail(tx, passwordChangedEmail(user.email, user.firstName), clock.now());
      });
    },

    async deleteAccount(user: repo.UserRow) {
      await deps.beforeAccountDeleted?.(user);
      // Sessions, codes and reset tokens go with the user (ON DELETE CASCADE).
      await repo.deleteUser(db, user.id);
    },

    async grantAdmins(emails: string[]) {
      return repo.grantAdmin(
        db,
        emails.map((email) => email.toLowerCase()),
      );
    },
  };
}
