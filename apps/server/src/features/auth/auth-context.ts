import { authMessages, TRIAL_DAYS } from '@waitlist/contract';
import type { Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { Unauthorized } from '../../lib/errors.ts';
import { generateToken, hashToken } from '../../lib/secrets.ts';
import * as repo from './auth.repo.ts';
import type { AuthServiceDeps } from './auth.service.ts';

const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60_000;

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

/** What each part of the auth service shares: its deps, sessions, the outbox and the locked user row. */
export interface AuthContext extends AuthServiceDeps {
  createSession(executor: Executor, userId: string): Promise<{ token: string }>;
  /** Runs `work` in one transaction; email it queued is delivered only if the transaction commits. */
  withOutbox<T>(work: (tx: Executor) => Promise<T>): Promise<T>;
  /** The user's row, locked until `tx` ends: every write decides from it, never from the session's copy. */
  lockedUser(tx: Executor, userId: string): Promise<repo.UserRow>;
}

export function createAuthContext(deps: AuthServiceDeps): AuthContext {
  const { db, clock } = deps;
  return {
    ...deps,
    createSession: (executor, userId) => issueSession(executor, clock, userId),
    async withOutbox(work) {
      const result = await db.transaction(work);
      deps.onOutboxWrite();
      return result;
    },
    async lockedUser(tx, userId) {
      const row = await repo.lockUser(tx, userId);
      if (!row) throw new Unauthorized(authMessages.sessionExpired);
      return row;
    },
  };
}

/**
 * Admin as the row will be written (issues 12 and 24): a listed address is admin once verified; a grant that
 * came from the list leaves with the address; a grant by `npm run admin` stays with the account. `row` is
 * the locked row before the write, `email` and `verified` what it is written with.
 */
export function adminAfter(
  { adminEmails }: Pick<AuthContext, 'adminEmails'>,
  row: repo.UserRow,
  email: string,
  verified: boolean,
): boolean {
  if (!verified) return false;
  if (adminEmails.includes(email)) return true;
  if (adminEmails.includes(row.email)) return false;
  return row.admin;
}

/**
 * Takes one password attempt from the login throttle before the password is verified (issue 24): per
 * account and address, per address, and per account over every address. Taking the point first, in one
 * atomic step per counter, makes a parallel burst meet the same limit as a sequence; a success gives it
 * back. Failures from one address never lock the owner out of another (issue 12).
 */
export async function takePasswordAttempt(
  { limiter }: Pick<AuthContext, 'limiter'>,
  email: string,
  ip: string,
) {
  await limiter.take([
    ['loginAccountIp', `${email} ${ip}`],
    ['loginIp', ip],
    ['loginAccount', email],
  ]);
}

export async function passwordAttemptSucceeded(
  { limiter }: Pick<AuthContext, 'limiter'>,
  email: string,
  ip: string,
) {
  await Promise.all([
    limiter.reset('loginAccountIp', `${email} ${ip}`),
    limiter.refund('loginIp', ip),
    limiter.refund('loginAccount', email),
  ]);
}
