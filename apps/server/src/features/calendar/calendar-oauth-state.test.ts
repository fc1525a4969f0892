import { Writable } from 'node:stream';
import { calendarMessages as m } from '@waitlist/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { calendarConnections } from '../../db/schema.ts';
import { createManualClock } from '../../lib/clock.ts';
import { redactUrl } from '../../lib/logger.ts';
import { type FakeGoogle, startFakeGoogle } from '../../test/fake-google.ts';
import { burst, statusCounts } from '../../test/race.ts';
import { auth, createTestApp, createTestDatabase, type TestApp } from '../../test/test-app.ts';
import { call, owner } from '../waitlist/waitlist.test-helpers.ts';
import {
  callbackOf,
  googleEnv,
  pendingIdOf,
  returnFromConsent,
  startConsent,
} from './calendar-oauth.test-helpers.ts';

/**
 * Issue 38: a calendar's consent is bound to the browser that started it and used once, and the account it
 * came back with waits for the owner's yes. An attacker who starts Google's consent and sends the link to
 * someone else connects nothing; a replayed state is refused; nothing is read, listed or pushed until the
 * owner confirms the account shown; another owner cannot answer for it; the code and state are never logged.
 */
let t: TestApp;
let fake: FakeGoogle;
const CALLBACK = callbackOf('google');

beforeAll(async () => {
  fake = await startFakeGoogle();
  t = await createTestApp({ env: googleEnv(fake) });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

/** Every row the business has in calendar_connections, pending ones included. */
const rowsOf = (userId: string) =>
  t.database.db.select().from(calendarConnections).where(eq(calendarConnections.userId, userId));
const tokenExchanges = () => fake.requests.filter((request) => request.path === '/token').length;
const refusedWith = (message: string) => `/account?tab=calendar&calendarError=${encodeURIComponent(message)}`;

describe('the consent is bound to the browser that started it (issue 38)', () => {
  it('a consent link started by one owner and finished in another browser connects nothing', async () => {
    const attacker = await owner(t);
    const { state, setCookie } = await startConsent(t, attacker.token, 'google');
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    expect(setCookie).toContain('Path=/api/v1/calendar/oauth/google/callback');
    expect(setCookie).toContain('Max-Age=600');
    // PUBLIC_URL is http:// here; on https:// the cookie is Secure.
    expect(setCookie).not.toContain('Secure');
    const exchanges = tokenExchanges();

    // The victim consents with their own Google account; their browser never had the attacker's cookie.
    const victim = await returnFromConsent(t, 'google', fake.authorize(CALLBACK), state);
    expect(victim.statusCode).toBe(303);
    expect(victim.headers.location).toBe(refusedWith(m.oauthOtherBrowser));
    expect(tokenExchanges()).toBe(exchanges);
    expect(await rowsOf(attacker.id)).toEqual([]);
    expect((await call(t, attacker.token, 'GET', '/calendar/connections')).json().data).toEqual([]);
  });

  it('a cookie that is not the one set with the state is refused', async () => {
    const o = await owner(t);
    const first = await startConsent(t, o.token, 'google');
    const second = await startConsent(t, o.token, 'google');
    const forged = await returnFromConsent(
      t,
      'google',
      fake.authorize(CALLBACK),
      first.state,
      'calendar_oauth=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    );
    expect(forged.headers.location).toBe(refusedWith(m.oauthOtherBrowser));
    const crossed = await returnFromConsent(
      t,
      'google',
      fake.authorize(CALLBACK),
      first.state,
      second.cookie,
    );
    expect(crossed.headers.location).toBe(refusedWith(m.oauthOtherBrowser));
    // The callback spends the binding either way.
    expect(String(crossed.headers['set-cookie'])).toMatch(/^calendar_oauth=; Path=[^;]+; Max-Age=0/);
    expect(await rowsOf(o.id)).toEqual([]);
  });

  it('a state is used once: a second code with the same state and cookie is refused', async () => {
    const o = await owner(t);
    const { state, cookie } = await startConsent(t, o.token, 'google');
    const landed = await returnFromConsent(t, 'google', fake.authorize(CALLBACK), state, cookie);
    const pendingId = pendingIdOf(landed);
    expect(pendingId).toMatch(/^[\da-f-]{36}$/);
    const exchanges = tokenExchanges();

    const replayed = await returnFromConsent(t, 'google', fake.authorize(CALLBACK), state, cookie);
    expect(replayed.headers.location).toBe(refusedWith(m.oauthExpired));
    expect(tokenExchanges()).toBe(exchanges);
    expect((await rowsOf(o.id)).map((row) => row.id)).toEqual([pendingId]);
  });
});

describe('the owner confirms the account before it is connected (issue 38)', () => {
  it('the callback holds the account; nothing is listed or read until the owner confirms what is shown', async () => {
    const o = await owner(t);
    const { state, cookie } = await startConsent(t, o.token, 'google');
    const landed = await returnFromConsent(t, 'google', fake.authorize(CALLBACK), state, cookie);
    const pendingId = pendingIdOf(landed)!;
    expect(landed.headers.location).toBe(`/account?tab=calendar&pending=${pendingId}`);

    const shown = await call(t, o.token, 'GET', `/calendar/oauth/pending/${pendingId}`);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json().data).toEqual({
      id: pendingId,
      kind: 'google',
      account: fake.calendarId,
      name: 'Salon',
      expiresAt: new Date(t.clock.now().getTime() + 10 * 60_000).toISOString(),
    });
    expect(JSON.stringify(shown.json())).not.toMatch(/token|secret/i);
    expect((await call(t, o.token, 'GET', '/calendar/connections')).json().data).toEqual([]);
    // Not live: the worker never reads it, and the connection routes do not know it.
    const readsBefore = fake.requests.length;
    t.clock.advance(61_000);
    await t.app.calendarWorker.runOnce();
    expect(fake.requests.length).toBe(readsBefore);
    expect((await call(t, o.token, 'POST', `/calendar/connections/${pendingId}/sync`)).statusCode).toBe(404);
    expect((await call(t, o.token, 'DELETE', `/calendar/connections/${pendingId}`)).statusCode).toBe(404);
    const [held] = await rowsOf(o.id);
    expect(held).toMatchObject({ status: 'pending', channelId: null, lastSyncedAt: null });

    const confirmed = await call(t, o.token, 'POST', `/calendar/oauth/pending/${pendingId}/confirm`);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({
      message: m.connected,
      data: { id: pendingId, kind: 'google', account: fake.calendarId, status: 'ok' },
    });
    expect((await call(t, o.token, 'GET', '/calendar/connections')).json().data).toMatchObject([
      { id: pendingId, kind: 'google', status: 'ok' },
    ]);
    // Confirmed once: it no longer waits.
    expect((await call(t, o.token, 'POST', `/calendar/oauth/pending/${pendingId}/confirm`)).statusCode).toBe(
      404,
    );
  });

  it('a burst of callbacks with one state holds one account, and a burst of confirms connects it once (race harness)', async () => {
    const o = await owner(t);
    const { state, cookie } = await startConsent(t, o.token, 'google');
    const code = fake.authorize(CALLBACK);
    const landed = await Promise.all(
      Array.from({ length: 5 }, () => returnFromConsent(t, 'google', code, state, cookie)),
    );
    const pending = landed.map(pendingIdOf).filter(Boolean);
    expect(pending).toHaveLength(1);
    expect(landed.filter((answer) => !pendingIdOf(answer)).map((answer) => answer.headers.location)).toEqual(
      Array(4).fill(refusedWith(m.oauthExpired)),
    );
    const confirms = await burst(t.app, 5, () => ({
      method: 'POST',
      url: `/api/v1/calendar/oauth/pending/${pending[0]}/confirm`,
      headers: auth(o.token),
    }));
    expect(statusCounts(confirms)).toEqual({ 200: 1, 404: 4 });
    expect(await rowsOf(o.id)).toMatchObject([{ status: 'ok' }]);
  });

  it('another owner can neither see, confirm nor cancel it; its owner cancels it and the grant is revoked', async () => {
    const o = await owner(t);
    const other = await owner(t);
    const { state, cookie } = await startConsent(t, o.token, 'google');
    const pendingId = pendingIdOf(
      await returnFromConsent(t, 'google', fake.authorize(CALLBACK), state, cookie),
    )!;

    for (const [method, path] of [
      ['GET', `/calendar/oauth/pending/${pendingId}`],
      ['POST', `/calendar/oauth/pending/${pendingId}/confirm`],
      ['DELETE', `/calendar/oauth/pending/${pendingId}`],
    ] as const) {
      const answer = await call(t, other.token, method, path);
      expect(answer.statusCode, `${method} ${path}`).toBe(404);
      expect(answer.json().message).toBe(m.oauthPendingNotFound);
    }
    expect(await rowsOf(other.id)).toEqual([]);
    expect(await rowsOf(o.id)).toMatchObject([{ id: pendingId, status: 'pending' }]);

    const revokedBefore = fake.revoked.length;
    const cancelled = await call(t, o.token, 'DELETE', `/calendar/oauth/pending/${pendingId}`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().message).toBe(m.oauthCancelled);
    expect(fake.revoked.length).toBe(revokedBefore + 1);
    expect(await rowsOf(o.id)).toEqual([]);
    expect((await call(t, o.token, 'POST', `/calendar/oauth/pending/${pendingId}/confirm`)).statusCode).toBe(
      404,
    );
  });

  it('an unanswered account is forgotten after 10 minutes', async () => {
    const o = await owner(t);
    const { state, cookie } = await startConsent(t, o.token, 'google');
    const pendingId = pendingIdOf(
      await returnFromConsent(t, 'google', fake.authorize(CALLBACK), state, cookie),
    )!;
    t.clock.advance(10 * 60_000 + 1);
    expect((await call(t, o.token, 'GET', `/calendar/oauth/pending/${pendingId}`)).statusCode).toBe(404);
    expect((await call(t, o.token, 'POST', `/calendar/oauth/pending/${pendingId}/confirm`)).statusCode).toBe(
      404,
    );
    // The next consent anyone starts deletes it.
    await startConsent(t, (await owner(t)).token, 'google');
    expect(await rowsOf(o.id)).toEqual([]);
  });
});

describe('the callback is not written to the log (issue 38)', () => {
  it('a request URL is logged with code, state and tokens redacted', () => {
    expect(redactUrl('/api/v1/calendar/oauth/google/callback?code=4%2F0Ab&state=a.b.c&scope=x')).toBe(
      '/api/v1/calendar/oauth/google/callback?code=[redacted]&state=[redacted]&scope=x',
    );
    expect(redactUrl('/unsubscribe?Token=abc&access_token=d&id_token=e&page=2')).toBe(
      '/unsubscribe?Token=[redacted]&access_token=[redacted]&id_token=[redacted]&page=2',
    );
    expect(redactUrl('/api/v1/health')).toBe('/api/v1/health');
  });

  it('no log line of a callback holds its code or state, at debug', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const database = await createTestDatabase();
    const clock = createManualClock(new Date('2026-11-23T15:00:00Z'));
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'debug',
      PUBLIC_URL: 'http://app.test',
      ...googleEnv(fake),
    });
    const app = await buildApp({
      config,
      database,
      clock,
      logger: { level: 'debug', stream },
      retryJitter: (ms) => ms,
    });
    await app.ready();
    const logged: TestApp = { app, database, clock, config, close: async () => {} };
    try {
      const o = await owner(logged);
      const { state, cookie } = await startConsent(logged, o.token, 'google');
      const code = fake.authorize(CALLBACK);
      const landed = await returnFromConsent(logged, 'google', code, state, cookie);
      expect(pendingIdOf(landed)).toBeTruthy();
      // And a refused one (no cookie), whose warning is logged too.
      await returnFromConsent(logged, 'google', fake.authorize(CALLBACK), state);

      const log = lines.join('');
      expect(log).toContain('/api/v1/calendar/oauth/google/callback?code=[redacted]&state=[redacted]');
      expect(log).not.toContain(code);
      expect(log).not.toContain(encodeURIComponent(code));
      // The state's random nonce, its browser digest and its signature (its owner id may be logged elsewhere).
      expect(log).not.toContain(state);
      for (const part of state.split('.').slice(2)) expect(log).not.toContain(part);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
