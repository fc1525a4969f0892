import { authMessages } from '@waitlist/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { openDatabase } from '../../db/client.ts';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';

/** What the people running the product use (issue 17): liveness, readiness, metrics, 503 on a lost database. */
const TOKEN = 'metrics-token-0123456789';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
  // The database's first statement (its connection opened, PGlite's pages loaded) is not what readiness is
  // judged on: on two busy cores it can take the 2 s readiness allows. Asked once here, before the tests.
  await t.app.inject({ url: '/api/v1/health/ready' });
});
afterAll(() => t.close());

describe('liveness and readiness', () => {
  it('live answers without the database; ready checks it, and neither names it (issue 24)', async () => {
    const live = await t.app.inject({ url: '/api/v1/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ success: true, status: 'ok' });
    const ready = await t.app.inject({ url: '/api/v1/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ success: true, status: 'ready' });
    expect(`${live.body}${ready.body}`).not.toMatch(/pglite|postgres/i);
  });

  it('ready answers 503 once shutdown has started, so the proxy stops sending work; live stays 200', async () => {
    t.app.lifecycle.draining = true;
    try {
      const ready = await t.app.inject({ url: '/api/v1/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ success: false, message: authMessages.shuttingDown });
      expect((await t.app.inject({ url: '/api/v1/health/live' })).statusCode).toBe(200);
    } finally {
      t.app.lifecycle.draining = false;
    }
  });
});

describe('GET /metrics', () => {
  it('is closed without the token and never in the API documentation', async () => {
    expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(401);
    const wrong = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ success: false, message: authMessages.metricsTokenRequired });
    const doc = (await t.app.inject({ url: '/api/docs/openapi.json' })).json();
    expect(doc.paths['/metrics']).toBeUndefined();
  });

  it('reports request rates and latencies by route, outbox depth and age, and deliveries by provider', async () => {
    const user = await registerUser(t); // queues a verification email
    await t.app.inject({ url: '/api/v1/health/live' });
    let text = (await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
    expect(text).toMatch(
      /http_requests_total\{method="POST",route="\/api\/v1\/auth\/register",status="201"\} 1/,
    );
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/health\/live"\} \d+/,
    );
    expect(text).toMatch(/outbox_rows\{kind="email",status="pending"\} 1/);
    expect(text).toMatch(/outbox_oldest_pending_age_seconds\{kind="email"\} \d/);
    await t.app.outbox.drain();
    text = (await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
    expect(text).toMatch(/outbox_deliveries_total\{kind="email",provider="local",outcome="sent"\} 1/);
    expect(text).toMatch(/outbox_rows\{kind="email",status="sent"\} 1/);
    expect(text).toMatch(/outbox_oldest_pending_age_seconds\{kind="email"\} 0/);
    expect(text).not.toContain(user.id); // labels carry route patterns, never ids
  });

  it('counts each request once, under its route pattern, its method and its status', async () => {
    const metric = async (labels: string) => {
      const text = (await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } }))
        .body;
      const line = text.split('\n').find((l) => l.startsWith(`http_requests_total{${labels}}`));
      return line ? Number(line.split(' ').pop()) : 0;
    };
    const live = 'method="GET",route="/api/v1/health/live",status="200"';
    const head = 'method="HEAD",route="/api/v1/health/live",status="200"';
    const missing = 'method="GET",route="/api/v1/openings/:id",status="401"';
    const unmatched = 'method="GET",route="unmatched",status="404"';
    const before = [await metric(live), await metric(head), await metric(missing), await metric(unmatched)];
    await t.app.inject({ url: '/api/v1/health/live' });
    await t.app.inject({ url: '/api/v1/health/live' });
    await t.app.inject({ method: 'HEAD', url: '/api/v1/health/live' });
    await t.app.inject({ url: `/api/v1/openings/${crypto.randomUUID()}` });
    await t.app.inject({ url: '/api/v1/no-such-thing/123' });
    const after = [await metric(live), await metric(head), await metric(missing), await metric(unmatched)];
    expect(after.map((n, i) => n - before[i]!)).toEqual([2, 1, 1, 1]);
  });

  it('does not exist when no METRICS_TOKEN is configured', async () => {
    const other = await createTestApp();
    try {
      expect((await other.app.inject({ url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await other.close();
    }
  });
});

describe('a database that cannot be reached', () => {
  it('answers 503 with a message and Retry-After, not a 500; readiness says so too', async () => {
    // A PostgreSQL address where nothing listens: every query fails to connect.
    const database = openDatabase({ url: 'postgres://postgres@127.0.0.1:1/nothing' });
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: 'http://app.test' });
    const app = await buildApp({ config, database, logger: false });
    try {
      const login = await app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: 'someone@example.com', password: 'secret123' },
      });
      expect(login.statusCode).toBe(503);
      expect(login.headers['retry-after']).toBe('5');
      expect(login.json()).toEqual({ success: false, message: authMessages.serviceUnavailable });
      const ready = await app.inject({ url: '/api/v1/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect((await app.inject({ url: '/api/v1/health/live' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
