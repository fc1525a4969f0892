import { authMessages } from '@waitlist/contract';
import { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterDrizzle,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import type { Database } from '../db/client.ts';
import { rateLimits } from '../db/schema.ts';
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
  /** Social sign-in, like login per IP: each attempt also costs a call to the provider. */
  externalAuthIp: { points: 50, durationSeconds: 15 * 60 },
  forgotPasswordAccount: { points: 3, durationSeconds: 60 * 60 },
  forgotPasswordIp: { points: 10, durationSeconds: 60 * 60 },
  sendVerificationAccount: { points: 5, durationSeconds: 60 * 60 },
  sendVerificationIp: { points: 20, durationSeconds: 60 * 60 },
  verifyAccountAccount: { points: 10, durationSeconds: 15 * 60 },
  verifyAccountIp: { points: 30, durationSeconds: 15 * 60 },
  /** Billing emails an owner can ask for (POST /notifications/*): enough for any real use, no mail bomb. */
  billingNotificationAccount: { points: 30, durationSeconds: 60 * 60 },
} as const;

export type RateLimitRule = keyof typeof rateLimitRules;

export interface RateLimiter {
  /** Counts one attempt; throws TooManyRequests (429 with Retry-After) once the rule's budget is spent. */
  consume(rule: RateLimitRule, key: string): Promise<void>;
  /** Throws TooManyRequests if the rule's budget for `key` is already spent; counts nothing. */
  check(rule: RateLimitRule, key: string): Promise<void>;
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
}): RateLimiter {
  const redis = deps.redisUrl
    ? new Redis(deps.redisUrl, { enableOfflineQueue: false, lazyConnect: false })
    : undefined;
  const limiters = new Map<RateLimitRule, RateLimiterAbstract>();
  for (const [rule, { points, durationSeconds }] of Object.entries(rateLimitRules) as [
    RateLimitRule,
    (typeof rateLimitRules)[RateLimitRule],
  ][]) {
    const options = {
      keyPrefix: `rl:${rule}`,
      points: deps.points?.[rule] ?? points,
      duration: durationSeconds,
    };
    limiters.set(
      rule,
      redis
        ? new RateLimiterRedis({ ...options, storeClient: redis })
        : new RateLimiterDrizzle({ ...options, storeClient: deps.db, schema: rateLimits }),
    );
  }

  const tooMany = (msBeforeNext: number) => {
    const retryAfterSeconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
    return new TooManyRequests(
      authMessages.tooManyAttempts(Math.ceil(retryAfterSeconds / 60)),
      retryAfterSeconds,
    );
  };

  return {
    async consume(rule, key) {
      try {
        await limiters.get(rule)!.consume(key.toLowerCase());
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        throw tooMany(rejection.msBeforeNext);
      }
    },
    async check(rule, key) {
      const limiter = limiters.get(rule)!;
      const state = await limiter.get(key.toLowerCase());
      if (state && state.consumedPoints >= limiter.points && state.msBeforeNext > 0) {
        throw tooMany(state.msBeforeNext);
      }
    },
    async fail(rule, key) {
      await limiters.get(rule)!.penalty(key.toLowerCase(), 1);
    },
    async reset(rule, key) {
      await limiters.get(rule)!.delete(key.toLowerCase());
    },
    async close() {
      redis?.disconnect();
    },
  };
}
