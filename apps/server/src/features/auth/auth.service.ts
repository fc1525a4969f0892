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

/** What every new account starts with, however it signs up: the 7-day trial from now, admin if listed. */
export function newAccountFields(now: Date, email: string, adminEmails: string[]) {
  return {
    email,
    admin: adminEmails.includes(email),
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

  async function issueVerificationCode(executor: Executor, user: repo.UserRow) {
    const code = generateVerificationCode();
    const expiresAt = new Date(clock.now().getTime() + VERIFICATION_CODE_TTL_MINUTES * MINUTE_MS);
    await repo.upsertVerification(executor, user.id, hashToken(code), expiresAt);
    await enqueueEmail(executor, verificationCodeEmail(user.email, user.firstName, code), clock.now());
  }

  /** Runs `work` in one transaction; email it queued is delivered only if the transaction commits. */
  async function withOutbox<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
    const result = await db.transaction(work);
    deps.onOutboxWrite();
    return result;
  }

  return {
    async register(body: RegisterBody) {
      const passwordHash = await hashPassword(body.password);
      const now = clock.now();
      const email = body.email.toLowerCase();
      return withOutbox(async (tx) => {
        const user = await repo.insertUser(tx, {
          ...newAccountFields(now, email, deps.adminEmails),
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
      await limiter.consume('loginIp', ip);
      await limiter.consume('loginAccount', email);
      const user = await repo.findUserByEmail(db, email);
      if (!user?.passwordHash) {
        dummyHash ??= hashPassword('not-a-real-password');
        await verifyPassword(await dummyHash, body.password);
        throw new Unauthorized(authMessages.invalidCredentials);
      }
      if (!(await verifyPassword(user.passwordHash, body.password))) {
        throw new Unauthorized(authMessages.invalidCredentials);
      }
      await limiter.reset('loginAccount', email);
      const { token } = await createSession(db, user.id);
      return { token, user };
    },

    async authenticate(token: string): Promise<Session | undefined> {
      const row = await repo.findSessionUser(db, hashToken(token), clock.now());
      return row && { user: row.user, sessionId: row.sessionId };
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

    async sendVerification(user: repo.UserRow, ip: string) {
      if (user.verified) throw new BadRequest(authMessages.alreadyVerified);
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
        const pending = await repo.findVerificationForUpdate(tx, user.id);
        if (!pending || pending.expiresAt <= clock.now())
          return { error: authMessages.codeExpired as string };
        if (pending.failedAttempts >= VERIFICATION_CODE_MAX_ATTEMPTS)
          return { error: authMessages.codeBurned as string };
        if (!sameHash(pending.codeHash, hashToken(code))) {
          await repo.recordFailedVerification(tx, user.id);
          const left = VERIFICATION_CODE_MAX_ATTEMPTS - pending.failedAttempts - 1;
          return {
            error:
              left > 0
                ? `${authMessages.codeInvalid}. ${left} attempt${left === 1 ? '' : 's'} left.`
                : authMessages.codeBurned,
          };
        }
        await repo.deleteVerification(tx, user.id);
        return {
          error: undefined,
          user: await repo.updateUser(tx, user.id, { verified: true }, clock.now()),
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
     * Writes only the profile fields (the mass-assignment allow-list). A new email address must be
     * verified again, so it makes the account unverified and sends a code to the new address.
     */
    async updateProfile(user: repo.UserRow, changes: Partial<ProfileUpdate>) {
      const email = changes.email?.toLowerCase();
      const emailChanged = email !== undefined && email !== user.email;
      try {
        const updated = await withOutbox(async (tx) => {
          const row = await repo.updateUser(
            tx,
            user.id,
            { ...changes, ...(email ? { email } : {}), ...(emailChanged ? { verified: false } : {}) },
            clock.now(),
          );
          if (emailChanged) await issueVerificationCode(tx, row!);
          return row!;
        });
        return { user: updated, emailChanged };
      } catch (error) {
        if (isUniqueViolation(error))
          throw new Conflict(authMessages.emailTaken, { email: authMessages.emailTaken });
        throw error;
      }
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
