import { authMessages } from '@waitlist/contract';
import { count, eq, like } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { localEmails, rateLimits, sessions } from '../../db/schema.ts';
import { createRateLimiter, type RateLimitRule, rateLimitRules } from '../../lib/rate-limit.ts';
import {
  auth,
  createTestApp,
  latestCodeFor,
  login,
  registerUser,
  type TestApp,
  uniqueEmail,
  uniqueIp,
} from '../../test/test-app.ts';

type Owner = Awaited<ReturnType<typeof registerUser>>;
let t: TestApp;
/** `a` is throttled per account; `b` and `c` share per-IP budgets. Each rule counts on its own. */
let a: Owner, b: Owner, c: Owner;
beforeAll(async () => {
  t = await createTestApp();
  [a, b, c] = [await registerUser(t), await registerUser(t), await registerUser(t)];
});
afterAll(() => t.close());

/**
 * Spends all but `left` of a rule's budget for `key` straight in the shared counter store, so a test reaches
 * the limit without dozens of password checks or accounts; the last attempts then go through the API, and
 * only if the API counts them under the same rule and key does the next call get a 429.
 */
async function spendAllBut(rule: RateLimitRule, key: string, left: number) {
  const limiter = createRateLimiter({ db: t.database.db });
  for (let n = 0; n < rateLimitRules[rule].points - left; n++) await limiter.consume(rule, key);
  await limiter.close();
}

const forgot = (email: string, remoteAddress = uniqueIp()) =>
  t.app.inject({ method: 'POST', url: '/api/v1/auth/forgotpassword', payload: { email }, remoteAddress });
const sendVerification = (owner: Owner, remoteAddress = uniqueIp()) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/send-verification',
    headers: auth(owner.token),
    remoteAddress,
  });
/** A wrong guess at the owner's live code: each call spends an attempt. */
const verify = async (owner: Owner, remoteAddress = uniqueIp()) => {
  const code = await latestCodeFor(t, owner.email);
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/verify-account',
    headers: auth(owner.token),
    payload: { verificationCode: String((Number(code) + 1) % 1_000_000).padStart(6, '0') },
    remoteAddress,
  });
};

async function emailsTo(to: string) {
  await t.app.outbox.drain();
  const [row] = await t.database.db.select({ n: count() }).from(localEmails).where(eq(localEmails.to, to));
  return row!.n;
}

/** 429 with a Retry-After inside the rule's window and the clear message that names the wait in minutes. */
function expectTooMany(response: LightMyRequestResponse, rule: RateLimitRule) {
  expect(response.statusCode).toBe(429);
  const retryAfter = Number(response.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(rateLimitRules[rule].durationSeconds);
  // The window opened moments ago, so the wait is the whole window, rounded up to minutes.
  const minutes = rateLimitRules[rule].durationSeconds / 60;
  expect(Math.ceil(retryAfter / 60)).toBe(minutes);
  expect(response.json()).toEqual({ success: false, message: authMessages.tooManyAttempts(minutes) });
}

describe('POST /auth/login', () => {
  it('stops an address after 10 failed passwords for one account, while the owner signs in from another (issue 12)', async () => {
    expect(rateLimitRules.loginAccountIp.points).toBe(10);
    const attacker = uniqueIp();
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await login(t, a.email, 'wrong-password', attacker)).statusCode).toBe(401);
    }
    const [before] = await t.database.db
      .select({ n: count() })
      .from(sessions)
      .where(eq(sessions.userId, a.id));
    // The attacker's address is stopped for this account, even with the right password…
    const locked = await login(t, ` ${a.email.toUpperCase()} `, a.password, attacker);
    expectTooMany(locked, 'loginAccountIp');
    expect(locked.json().message).toBe('Too many attempts. Please try again in 15 minutes.');
    const [after] = await t.database.db
      .select({ n: count() })
      .from(sessions)
      .where(eq(sessions.userId, a.id));
    expect(after!.n).toBe(before!.n);
    // …but the owner, from their own address, still signs in: the lockout is no weapon.
    expect((await login(t, a.email, a.password, uniqueIp())).statusCode).toBe(200);
    // Another account from the attacker's address is not affected by that pair's count.
    expect((await login(t, b.email, b.password, attacker)).statusCode).toBe(200);
  });

  it('counts failures only: signing in many times from one address never locks anyone out', async () => {
    const office = uniqueIp();
    for (let attempt = 0; attempt < 12; attempt++) {
      expect((await login(t, b.email, b.password, office)).statusCode).toBe(200);
    }
  });

  it('has a slower ceiling of 100 failures an hour per account, across every address', async () => {
    expect(rateLimitRules.loginAccount).toEqual({ points: 100, durationSeconds: 60 * 60 });
    const target = await registerUser(t);
    await spendAllBut('loginAccount', target.email, 1);
    expect((await login(t, target.email, 'wrong-password')).statusCode).toBe(401);
    expectTooMany(await login(t, target.email, target.password), 'loginAccount');
  });

  it('limits one address to 50 attempts across different emails; another address still signs in', async () => {
    const ip = uniqueIp();
    expect(rateLimitRules.loginIp.points).toBe(50);
    await spendAllBut('loginIp', ip, 2);
    expect((await login(t, uniqueEmail('nobody'), 'wrong-password', ip)).statusCode).toBe(401);
    expect((await login(t, b.email, 'wrong-password', ip)).statusCode).toBe(401);

    expectTooMany(await login(t, c.email, c.password, ip), 'loginIp');
    expectTooMany(await login(t, uniqueEmail('other'), 'whatever', ip), 'loginIp');
    expect((await login(t, c.email, c.password, uniqueIp())).statusCode).toBe(200);
  });
});

describe('POST /auth/forgotpassword', () => {
  it('sends at most 3 reset emails per account and address an hour, never answering 429 for the account', async () => {
    expect(rateLimitRules.forgotPasswordAccountIp.points).toBe(3);
    const sentBefore = await emailsTo(a.email);
    const stranger = uniqueEmail('stranger');
    const attacker = uniqueIp();
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await forgot(a.email, attacker)).statusCode).toBe(200);
      expect((await forgot(stranger, attacker)).statusCode).toBe(200);
    }
    // Past the budget: the usual answer (never 429 on the account's key, issue 24), and no email.
    const known = await forgot(a.email.toUpperCase(), attacker);
    const unknown = await forgot(stranger, attacker);
    expect(known.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    expect(await emailsTo(a.email)).toBe(sentBefore + 3);
    // The owner asking from their own address still gets the link.
    expect((await forgot(a.email)).statusCode).toBe(200);
    expect(await emailsTo(a.email)).toBe(sentBefore + 4);
  });

  it('sends at most 10 reset emails per account an hour over every address, answering as usual past that', async () => {
    expect(rateLimitRules.forgotPasswordAccount.points).toBe(10);
    const owner = await registerUser(t);
    const sentBefore = await emailsTo(owner.email);
    for (let attempt = 0; attempt < 12; attempt++) {
      expect((await forgot(owner.email)).statusCode).toBe(200);
    }
    expect(await emailsTo(owner.email)).toBe(sentBefore + 10);
  });

  it('limits one address to 10 requests an hour across different emails; another address is not affected', async () => {
    expect(rateLimitRules.forgotPasswordIp.points).toBe(10);
    const ip = uniqueIp();
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await forgot(uniqueEmail('probe'), ip)).statusCode).toBe(200);
    }
    const sentBefore = await emailsTo(b.email);
    expectTooMany(await forgot(b.email, ip), 'forgotPasswordIp');
    expect(await emailsTo(b.email)).toBe(sentBefore);
    expect((await forgot(b.email, uniqueIp())).statusCode).toBe(200);
    expect(await emailsTo(b.email)).toBe(sentBefore + 1);
  });
});

describe('POST /auth/send-verification', () => {
  it('sends at most 5 codes per account an hour, from any addresses', async () => {
    expect(rateLimitRules.sendVerificationAccount.points).toBe(5);
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await sendVerification(a)).statusCode).toBe(200);
    }
    const sentBefore = await emailsTo(a.email);
    expectTooMany(await sendVerification(a), 'sendVerificationAccount');
    expect(await emailsTo(a.email)).toBe(sentBefore);
  });

  it('limits one address to 20 requests an hour across accounts; another address is not affected', async () => {
    expect(rateLimitRules.sendVerificationIp.points).toBe(20);
    const ip = uniqueIp();
    await spendAllBut('sendVerificationIp', ip, 2);
    expect((await sendVerification(b, ip)).statusCode).toBe(200);
    expect((await sendVerification(c, ip)).statusCode).toBe(200);
    // b has used 1 of its own 5: this refusal is the address's.
    const sentBefore = await emailsTo(b.email);
    expectTooMany(await sendVerification(b, ip), 'sendVerificationIp');
    expect(await emailsTo(b.email)).toBe(sentBefore);
    expect((await sendVerification(b, uniqueIp())).statusCode).toBe(200);
  });
});

describe('POST /auth/verify-account', () => {
  it('allows 10 guesses per account in 15 minutes, from any addresses', async () => {
    expect(rateLimitRules.verifyAccountAccount.points).toBe(10);
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await verify(a)).statusCode).toBe(400);
    }
    expectTooMany(await verify(a), 'verifyAccountAccount');
  });

  it('limits one address to 30 guesses in 15 minutes across accounts; another address is not affected', async () => {
    expect(rateLimitRules.verifyAccountIp.points).toBe(30);
    const ip = uniqueIp();
    await spendAllBut('verifyAccountIp', ip, 2);
    expect((await verify(b, ip)).json().message).toBe('Invalid verification code. 4 attempts left.');
    expect((await verify(c, ip)).statusCode).toBe(400);
    expectTooMany(await verify(b, ip), 'verifyAccountIp');
    // The refused guess did not spend one of b's attempts on the code.
    const elsewhere = await verify(b, uniqueIp());
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().message).toBe('Invalid verification code. 3 attempts left.');
  });
});

describe('counter clean-up', () => {
  it('deletes counters expired over an hour ago, keeps the rest, and stops at close (no query after shutdown)', async () => {
    const db = t.database.db;
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 60 * 60 * 1000);
    const prefix = `sweep-test-${Date.now()}`;
    await db.insert(rateLimits).values([
      { key: `${prefix}:old`, points: 3, expire: hoursAgo(2) },
      { key: `${prefix}:recent`, points: 3, expire: hoursAgo(0.5) },
      { key: `${prefix}:live`, points: 3, expire: hoursAgo(-1) },
    ]);
    const warnings: unknown[] = [];
    const limiter = createRateLimiter({
      db,
      sweepIntervalMs: 20,
      logger: { warn: (details) => warnings.push(details) },
    });
    const keys = async () =>
      (
        await db
          .select({ key: rateLimits.key })
          .from(rateLimits)
          .where(like(rateLimits.key, `${prefix}:%`))
      )
        .map((row) => row.key)
        .sort();
    await expect.poll(keys, { timeout: 5000 }).toEqual([`${prefix}:live`, `${prefix}:recent`]);
    await limiter.close();
    // After close, an expired counter stays: the sweep no longer runs (it would fail once the pool is ended).
    await db.insert(rateLimits).values({ key: `${prefix}:old-again`, points: 1, expire: hoursAgo(3) });
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await keys()).toEqual([`${prefix}:live`, `${prefix}:old-again`, `${prefix}:recent`]);
    expect(warnings).toEqual([]);
  });

  it('closing the app stops the sweep, with every other interval the app started, before the database closes (issue 27)', async () => {
    // Only intervals are faked, so the app builds and closes on real time; the sweep is one of them.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const own = await createTestApp();
      expect(vi.getTimerCount()).toBeGreaterThan(0);
      await own.app.close();
      // Nothing left to fire once PostgreSQL is closed ("Cannot use a pool after calling end").
      expect(vi.getTimerCount()).toBe(0);
      await own.database.close();
      vi.advanceTimersByTime(60 * 60 * 1000);
    } finally {
      vi.useRealTimers();
    }
  });
});
