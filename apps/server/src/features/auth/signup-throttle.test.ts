import { authMessages } from '@waitlist/contract';
import { count, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { localEmails, users } from '../../db/schema.ts';
import { rateLimitRules } from '../../lib/rate-limit.ts';
import {
  createTestApp,
  login,
  registerUser,
  type TestApp,
  uniqueEmail,
  uniqueIp,
} from '../../test/test-app.ts';

/**
 * Issue 12, findings 5 and 6: sign-up is throttled per address (429 with Retry-After), and TRUST_PROXY
 * decides whose address that is behind a load balancer.
 */
const signUp = (
  t: TestApp,
  remoteAddress: string,
  headers: Record<string, string> = {},
  email = uniqueEmail('bulk'),
) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    payload: { firstName: 'Bot', lastName: 'Net', email, password: 'secret123' },
    remoteAddress,
    headers,
  });

describe('POST /auth/register from one address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('creates 10 accounts an hour, then answers 429 with Retry-After and sends no more email', async () => {
    expect(rateLimitRules.registerIp).toEqual({ points: 10, durationSeconds: 60 * 60 });
    const address = uniqueIp();
    const statuses: number[] = [];
    let last = await signUp(t, address);
    statuses.push(last.statusCode);
    for (let n = 1; n < 60; n++) {
      last = await signUp(t, address, {}, uniqueEmail(`bulk${n}`));
      statuses.push(last.statusCode);
    }
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.slice(10).every((status) => status === 429)).toBe(true);
    const retryAfter = Number(last.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(last.json()).toEqual({ success: false, message: authMessages.tooManyAttempts(60) });

    await t.app.outbox.drain();
    const [accounts] = await t.database.db
      .select({ n: count() })
      .from(users)
      .where(like(users.email, 'bulk%'));
    expect(accounts!.n).toBe(10);
    const [mails] = await t.database.db
      .select({ n: count() })
      .from(localEmails)
      .where(like(localEmails.to, 'bulk%'));
    expect(mails!.n).toBe(10);

    // Another address signs up; the throttled one still signs in to the accounts it has.
    expect((await signUp(t, uniqueIp())).statusCode).toBe(201);
  });

  it('a spoofed X-Forwarded-For changes nothing without TRUST_PROXY', async () => {
    const address = uniqueIp();
    for (let n = 0; n < 10; n++) {
      expect((await signUp(t, address, { 'x-forwarded-for': `198.51.100.${n}` })).statusCode).toBe(201);
    }
    expect((await signUp(t, address, { 'x-forwarded-for': '198.51.100.99' })).statusCode).toBe(429);
  });
});

describe('TRUST_PROXY', () => {
  it('parses a hop count or a list of proxy addresses, off by default, and names itself when wrong', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.0.0.0/8,::1' }).trustProxy).toEqual([
      '10.0.0.1',
      '10.0.0.0/8',
      '::1',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'yes please' })).toThrow(/^Invalid configuration: TRUST_PROXY/);
    expect(loadConfig({ SIGNUP_LIMIT_PER_HOUR: '3' }).signupLimitPerHour).toBe(3);
    expect(() => loadConfig({ SIGNUP_LIMIT_PER_HOUR: '0' })).toThrow(/SIGNUP_LIMIT_PER_HOUR/);
  });

  it('behind one proxy, each client is counted by the address the proxy forwards', async () => {
    const t = await createTestApp({ env: { TRUST_PROXY: '1', SIGNUP_LIMIT_PER_HOUR: '2' } });
    try {
      const proxy = uniqueIp();
      const client = (n: number) => ({ 'x-forwarded-for': `203.0.113.${n}` });
      expect((await signUp(t, proxy, client(1))).statusCode).toBe(201);
      expect((await signUp(t, proxy, client(1))).statusCode).toBe(201);
      expect((await signUp(t, proxy, client(1))).statusCode).toBe(429);
      // Another client behind the same proxy has its own budget.
      expect((await signUp(t, proxy, client(2))).statusCode).toBe(201);

      // Login failures too: the attacker behind the proxy is stopped, the owner behind it is not.
      const owner = await registerUser(t);
      for (let n = 0; n < rateLimitRules.loginAccountIp.points; n++) {
        const failed = await t.app.inject({
          method: 'POST',
          url: '/api/v1/auth/login',
          payload: { email: owner.email, password: 'wrong-password' },
          remoteAddress: proxy,
          headers: client(66),
        });
        expect(failed.statusCode).toBe(401);
      }
      const attacker = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: owner.email, password: owner.password },
        remoteAddress: proxy,
        headers: client(66),
      });
      expect(attacker.statusCode).toBe(429);
      const ownerLogin = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: owner.email, password: owner.password },
        remoteAddress: proxy,
        headers: client(7),
      });
      expect(ownerLogin.statusCode).toBe(200);
      const [row] = await t.database.db.select().from(users).where(eq(users.email, owner.email));
      expect(row).toBeDefined();
      expect((await login(t, owner.email, owner.password)).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
