import { authMessages } from '@waitlist/contract';
import { lt, type SQL, sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterDrizzle,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import type { Database } from '../db/client.ts';
import { rateLimits } from '../db/schema.ts';
import { sweepNonces } from '../nonces/index.ts';
import { TooManyRequests } from './errors.ts';

/**
 * Throttles for the brute-forceable calls (issue 3): each is counted per account and per IP.
 * Numbers are attempts per window.
 *
 * Login counts failed passwords only, and never locks an owner out from their own address (issue 12,
 * OWASP ASVS anti-automation without lockout attacks): 10 failures per account *and* address, 50 per
 * address, and a slower ceiling of 100 per account an hour, so an attacker's failures from one address
 * leave the right password from any other address working.
 */
export const rateLimitRules = {
  loginAccountIp: { points: 10, durationSeconds: 15 * 60 },
  loginIp: { points: 50, durationSeconds: 15 * 60 },
  loginAccount: { points: 100, durationSeconds: 60 * 60 },
  /** Accounts created per address (SIGNUP_LIMIT_PER_HOUR overrides the points). */
  registerIp: { points: 10, durationSeconds: 60 * 60 },
  /**
   * Public waitlist sign-ups (issue 15): per address, and confirmation texts per phone number. Issue 24: an
   * address is an IPv4 address or an IPv6 /64 (lib/address-key.ts); the first `joinProofIp` sign-ups of an
   * address in an hour need no proof of work, later ones do; unknown join links (`joinMissIp`) and
   * proof-of-work challenges (`joinChallengeIp`) are counted per address too.
   */
  joinIp: { points: 10, durationSeconds: 60 * 60 },
  joinPhone: { points: 3, durationSeconds: 24 * 60 * 60 },
  joinProofIp: { points: 3, durationSeconds: 60 * 60 },
  joinMissIp: { points: 20, durationSeconds: 60 * 60 },
  joinChallengeIp: { points: 30, durationSeconds: 60 * 60 },
  /** Social sign-in, like login per IP: each attempt also costs a call to the provider. */
  externalAuthIp: { points: 50, durationSeconds: 15 * 60 },
  /**
   * Reset emails (issue 24): per address, and per account *and* address. The account's budget is never
   * answered with 429 (that would let anyone block the owner's own reset): past it the answer is the usual
   * one and the email is dropped. `forgotPasswordAccount` is a ceiling over every address, dropped the same.
   */
  forgotPasswordIp: { points: 10, durationSeconds: 60 * 60 },
  forgotPasswordAccountIp: { points: 3, durationSeconds: 60 * 60 },
  forgotPasswordAccount: { points: 10, durationSeconds: 60 * 60 },
  /**
   * Code emails to one recipient address, whichever account asks (issue 24: two accounts sent eight codes to
   * an address that never signed up). Per hour: one account's sign-up code and its 5 resends; per day, twice that.
   */
  codeEmailRecipient: { points: 6, durationSeconds: 60 * 60 },
  codeEmailRecipientDaily: { points: 12, durationSeconds: 24 * 60 * 60 },
  sendVerificationAccount: { points: 5, durationSeconds: 60 * 60 },
  sendVerificationIp: { points: 20, durationSeconds: 60 * 60 },
  verifyAccountAccount: { points: 10, durationSeconds: 15 * 60 },
  verifyAccountIp: { points: 30, durationSeconds: 15 * 60 },
  /** Billing emails an owner can ask for (POST /notifications/*): enough for any real use, no mail bomb. */
  billingNotificationAccount: { points: 30, durationSeconds: 60 * 60 },
  /**
   * Connected calendars (issue 29): each connect attempt and each "Check now" makes the server call an address
   * the owner named, so an account gets a budget: plenty for trying a few passwords, no request cannon.
   */
  calendarConnectAccount: { points: 20, durationSeconds: 60 * 60 },
  calendarSyncAccount: { points: 60, durationSeconds: 60 * 60 },
  /** Pushes to /calendar/push/* that carry no secret of ours, per address (a guessing sender is cut off). */
  calendarPushIp: { points: 100, durationSeconds: 15 * 60 },
  /**
   * Verified pushes that make a channel's calendar due, per channel (issue 38: a replayed push re-read the
   * calendar each time, against a quota all businesses share). Past it a push reads nothing: the 45-second
   * poll still reads the calendar, so a burst of real changes is late by under a minute, never lost.
   */
  calendarPushChannel: { points: 6, durationSeconds: 60 },
} as const;

export type RateLimitRule = keyof typeof rateLimitRules;

export interface RateLimiter {
  /** Counts one attempt; throws TooManyRequests (429 with Retry-After) once the rule's budget is spent. */
  consume(rule: RateLimitRule, key: string): Promise<void>;
  /** Throws TooManyRequests if the rule's budget for `key` is already spent; counts nothing. */
  check(rule: RateLimitRule, key: string): Promise<void>;
  /** Counts one attempt like `consume`, but answers false instead of throwing once the budget is spent. */
  tryConsume(rule: RateLimitRule, key: string): Promise<boolean>;
  /**
   * Takes one point from each rule in order, as one attempt: the first rule whose budget is spent throws
   * TooManyRequests and the points already taken are given back, so a refused attempt costs nothing (issue
   * 24: a burst meets the same limit as a sequence, because the point is taken before the work is done).
   */
  take(rules: [RateLimitRule, string][]): Promise<void>;
  /** Gives back one point taken by `consume`/`take` (the attempt succeeded and must not count). */
  refund(rule: RateLimitRule, key: string): Promise<void>;
  /** Counts one failure without ever throwing (the failing request still gets its own answer). */
  fail(rule: RateLimitRule, key: string): Promise<void>;
  reset(rule: RateLimitRule, key: string): Promise<void>;
  close(): Promise<void>;
}

/** Counters live in PostgreSQL (or PGlite), or in Redis when REDIS_URL is set, so every instance shares them. */
export function createRateLimiter(deps: {
  db: Database;
  redisUrl?: string | undefined;
  /** Points that replace a rule's default (configuration, e.g. SIGNUP_LIMIT_PER_HOUR). */
  points?: Partial<Record<RateLimitRule, number>>;
  /**
   * How often counters expired over an hour ago (PostgreSQL store only) and used nonces past their window are
   * deleted; 5 minutes.
   */
  sweepIntervalMs?: number;
  /** Where a failed sweep is reported (the app's logger); console otherwise. */
  logger?: { warn(details: object, message: string): void };
}): RateLimiter {
  let redis: Redis | undefined;
  const build = (
    store: (options: { keyPrefix: string; points: number; duration: number }) => RateLimiterAbstract,
  ) => {
    const limiters = new Map<RateLimitRule, RateLimiterAbstract>();
    for (const [rule, { points, durationSeconds }] of Object.entries(rateLimitRules) as [
      RateLimitRule,
      (typeof rateLimitRules)[RateLimitRule],
    ][]) {
      limiters.set(
        rule,
        store({ keyPrefix: `rl:${rule}`, points: deps.points?.[rule] ?? points, duration: durationSeconds }),
      );
    }
    return limiters;
  };
  // ioredis loads only when REDIS_URL is set (issue 16: not at every start-up).
  const ready: Promise<Map<RateLimitRule, RateLimiterAbstract>> = deps.redisUrl
    ? import('ioredis').then(({ Redis }) => {
        const client = new Redis(deps.redisUrl!, { enableOfflineQueue: false, lazyConnect: false });
        redis = client;
        return build((options) => new RateLimiterRedis({ ...options, storeClient: client }));
      })
    : Promise.resolve(
        build(
          (options) =>
            // The library's own clean-up timer (one per limiter, never stopped) would outlive the pool and log
            // "Cannot use a pool after calling end" after shutdown; one sweep of ours runs instead (below).
            new RateLimiterDrizzle({
              ...options,
              storeClient: deps.db,
              schema: rateLimits,
              clearExpiredByTimeout: false,
            }),
        ),
      );
  // Counters expired over an hour ago are deleted every few minutes, as the library would; close() stops it.
  // Used nonces past their window (nonces/, issue 24) are deleted by the same sweep: they live in the database
  // whichever store the counters use, so the sweep runs with Redis too.
  let sweeping: Promise<unknown> = Promise.resolve();
  const sweep = setInterval(
    () => {
      sweeping = Promise.all([
        deps.redisUrl
          ? undefined
          : deps.db.delete(rateLimits).where(lt(rateLimits.expire, new Date(Date.now() - 60 * 60 * 1000))),
        sweepNonces(deps.db, new Date()),
      ]).catch((error: unknown) => {
        if (deps.logger) deps.logger.warn({ err: error }, 'rate limit counters: clean-up failed');
        else console.warn('rate limit counters: clean-up failed', error);
      });
    },
    deps.sweepIntervalMs ?? 5 * 60 * 1000,
  );
  sweep.unref();
  const limiterFor = async (rule: RateLimitRule) => (await ready).get(rule)!;

  const tooMany = (msBeforeNext: number) => {
    const retryAfterSeconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
    return new TooManyRequests(
      authMessages.tooManyAttempts(Math.ceil(retryAfterSeconds / 60)),
      retryAfterSeconds,
    );
  };

  const refund = async (rule: RateLimitRule, key: string) => {
    await (await limiterFor(rule)).reward(key.toLowerCase(), 1);
  };

  return {
    async consume(rule, key) {
      try {
        await (await limiterFor(rule)).consume(key.toLowerCase());
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        throw tooMany(rejection.msBeforeNext);
      }
    },
    async tryConsume(rule, key) {
      try {
        await (await limiterFor(rule)).consume(key.toLowerCase());
        return true;
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        return false;
      }
    },
    async take(rules) {
      const taken: [RateLimitRule, string][] = [];
      for (const [rule, key] of rules) {
        try {
          await (await limiterFor(rule)).consume(key.toLowerCase());
          taken.push([rule, key]);
        } catch (rejection) {
          // The point of the refused rule was counted past its budget too: give every point back.
          if (rejection instanceof RateLimiterRes) taken.push([rule, key]);
          await Promise.all(taken.map(([takenRule, takenKey]) => refund(takenRule, takenKey)));
          if (!(rejection instanceof RateLimiterRes)) throw rejection;
          throw tooMany(rejection.msBeforeNext);
        }
      }
    },
    refund,
    async check(rule, key) {
      const limiter = await limiterFor(rule);
      const state = await limiter.get(key.toLowerCase());
      if (state && state.consumedPoints >= limiter.points && state.msBeforeNext > 0) {
        throw tooMany(state.msBeforeNext);
      }
    },
    async fail(rule, key) {
      await (await limiterFor(rule)).penalty(key.toLowerCase(), 1);
    },
    async reset(rule, key) {
      await (await limiterFor(rule)).delete(key.toLowerCase());
    },
    async close() {
      clearInterval(sweep);
      await sweeping;
      await ready.catch(() => {});
      redis?.disconnect();
    },
  };
}

// ---- the per-account send rate of texts: one row per account in rate_limits, `expire` = when the next send may go ----

/**
 * An account's send slot, as parts of a statement that does more (features/messaging: a text's two
 * statements, issue 16). Taking it is one conditional upsert, so several workers never send for one account
 * at once. The slot is held for a lease (a send in flight); freeing it one interval after the provider
 * answered means the provider sees two texts of one account at least one interval apart, whatever the
 * network latency. Accounts are given as SQL yielding their id (a column, a subquery, a placeholder).
 */
export const sendSlot = {
  /** Takes the slot of the accounts `accounts` selects (a query with a `user_id` column) if free at `now`:
   * an INSERT … RETURNING key, one row per slot taken. */
  take: (accounts: SQL, lease: SQL, now: SQL) => sql`
    insert into ${rateLimits} (key, points, expire)
    select ${sendGateKey(sql`account.user_id`)}, 0, ${lease} from (${accounts}) as account
    on conflict (key) do update set expire = excluded.expire
    where ${rateLimits.expire} is null or ${rateLimits.expire} <= ${now}
    returning key`,
  /** When the account's slot frees (null: no slot yet): a scalar subquery. */
  freeAt: (userId: SQL) => sql`(select expire from ${rateLimits} where key = ${sendGateKey(userId)})`,
  /** Frees the slot at `freeAt` (an UPDATE). */
  release: (userId: SQL, freeAt: SQL) =>
    sql`update ${rateLimits} set expire = ${freeAt} where key = ${sendGateKey(userId)}`,
};

const sendGateKey = (userId: SQL) => sql`'sms-send:' || (${userId})::text`;
