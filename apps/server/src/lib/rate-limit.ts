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
 */
export const rateLimitRules = {
  loginAccount: { points: 10, durationSeconds: 15 * 60 },
  loginIp: { points: 50, durationSeconds: 15 * 60 },
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
  reset(rule: RateLimitRule, key: string): Promise<void>;
  close(): Promise<void>;
}

/** Counters live in PostgreSQL (or PGlite), or in Redis when REDIS_URL is set, so every instance shares them. */
export function createRateLimiter(deps: { db: Database; redisUrl?: string | undefined }): RateLimiter {
  const redis = deps.redisUrl
    ? new Redis(deps.redisUrl, { enableOfflineQueue: false, lazyConnect: false })
    : undefined;
  const limiters = new Map<RateLimitRule, RateLimiterAbstract>();
  for (const [rule, { points, durationSeconds }] of Object.entries(rateLimitRules) as [
    RateLimitRule,
    (typeof rateLimitRules)[RateLimitRule],
  ][]) {
    const options = { keyPrefix: `rl:${rule}`, points, duration: durationSeconds };
    limiters.set(
      rule,
      redis
        ? new RateLimiterRedis({ ...options, storeClient: redis })
        : new RateLimiterDrizzle({ ...options, storeClient: deps.db, schema: rateLimits }),
    );
  }

  return {
    async consume(rule, key) {
      try {
        await limiters.get(rule)!.consume(key.toLowerCase());
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        const retryAfterSeconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        throw new TooManyRequests(
          authMessages.tooManyAttempts(Math.ceil(retryAfterSeconds / 60)),
          retryAfterSeconds,
        );
      }
    },
    async reset(rule, key) {
      await limiters.get(rule)!.delete(key.toLowerCase());
    },
    async close() {
      redis?.disconnect();
    },
  };
}
