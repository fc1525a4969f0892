import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authMessages, DEFAULT_PLAN_CATALOGUE } from '@waitlist/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { createTestApp, registerUser, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A second app on the same database with other settings (the way another deployment would run). */
async function appWith(env: Record<string, string>, webDistDir?: string): Promise<FastifyInstance> {
  const config = loadConfig(
    { NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: 'http://app.test', ...env },
    { webDistDir },
  );
  const app = await buildApp({ config, database: t.database, clock: t.clock, logger: false });
  await app.ready();
  return app;
}

describe('GET /api/v1/health', () => {
  it('answers ok after asking the database, and does not name it (issue 24)', async () => {
    const response = await t.app.inject({ url: '/api/v1/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, status: 'ok' });
    expect(response.body).not.toMatch(/pglite|postgres/i);
  });
});

describe('GET /api/v1/config', () => {
  it('tells the web app what it needs to render, nothing secret, and no provider or database name', async () => {
    const response = await t.app.inject({ url: '/api/v1/config' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      googleClientId: null,
      facebookAppId: null,
      appleClientId: null,
      localMailbox: true,
      localPhone: true,
      billing: { provider: 'local', publishableKey: null, configured: true },
      plans: DEFAULT_PLAN_CATALOGUE,
      smsSegmentPrice: { amount: 0.0079, currency: 'USD' },
    });

    const configured = await appWith({
      SMTP_URL: 'smtp://mailer:mail-password@127.0.0.1:9',
      PLIVO_AUTH_ID: 'MAPLIVOAUTHID0000000',
      PLIVO_AUTH_TOKEN: 'plivo-token',
      PLIVO_API_URL: 'http://127.0.0.1:9',
      GOOGLE_CLIENT_ID: 'google-client.apps.googleusercontent.com',
      FACEBOOK_APP_ID: '1234567890',
      FACEBOOK_APP_SECRET: 'facebook-secret',
      APPLE_CLIENT_ID: 'com.example.waitlist',
      STRIPE_SECRET_KEY: 'sk_test_secret',
    });
    try {
      const answer = await configured.inject({ url: '/api/v1/config' });
      expect(answer.json()).toEqual({
        success: true,
        googleClientId: 'google-client.apps.googleusercontent.com',
        facebookAppId: '1234567890',
        appleClientId: 'com.example.waitlist',
        localMailbox: false,
        localPhone: false,
        // A secret key without a publishable key and price ids: Stripe is chosen but not usable yet.
        billing: { provider: 'stripe', publishableKey: null, configured: false },
        plans: DEFAULT_PLAN_CATALOGUE,
        smsSegmentPrice: { amount: 0.0079, currency: 'USD' },
      });
      expect(answer.body).not.toMatch(/mail-password|facebook-secret|sk_test|plivo-token/);
      expect(answer.body).not.toMatch(/smtp|plivo|pglite|postgres/i);
    } finally {
      await configured.close();
    }
  });
});

describe('GET /api/docs/openapi.json', () => {
  it('documents every accounts call of SPEC §7 with its method', async () => {
    const response = await t.app.inject({ url: '/api/docs/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    const expected: [string, string][] = [
      ['/api/v1/auth/register', 'post'],
      ['/api/v1/auth/login', 'post'],
      ['/api/v1/auth/logout', 'post'],
      ['/api/v1/auth/me', 'get'],
      ['/api/v1/auth/forgotpassword', 'post'],
      ['/api/v1/auth/resetpassword/{resettoken}', 'put'],
      ['/api/v1/auth/send-verification', 'post'],
      ['/api/v1/auth/verify-account', 'post'],
      ['/api/v1/auth/business-verification', 'post'],
      ['/api/v1/auth/account', 'delete'],
      ['/api/v1/auth/updatedetails', 'put'],
      ['/api/v1/auth/updatepassword', 'put'],
      ['/api/v1/users/{id}', 'put'],
      ['/api/v1/health', 'get'],
    ];
    for (const [path, method] of expected) {
      expect(document.paths[path]?.[method], `${method.toUpperCase()} ${path}`).toBeDefined();
    }
    // Guarded calls say they need the bearer token; the dev mailbox is not part of the API.
    expect(document.paths['/api/v1/auth/me'].get.security).toEqual([{ bearerAuth: [] }]);
    expect(document.paths['/api/v1/dev/mailbox']).toBeUndefined();
    expect(
      document.paths['/api/v1/auth/login'].post.requestBody.content['application/json'].schema,
    ).toMatchObject({ properties: { email: expect.any(Object), password: expect.any(Object) } });
  });
});

describe('unknown paths and bad requests', () => {
  it.each([
    ['GET', '/api/v1/nope'],
    ['POST', '/api/v1/auth/nope'],
    ['DELETE', '/api/v1/users'],
    ['GET', '/api/v2/auth/me'],
  ])('answers %s %s with a JSON 404', async (method, url) => {
    const response = await t.app.inject({ method: method as 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ success: false, message: authMessages.notFound });
  });

  it('answers malformed JSON with a 400 in the API shape', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, message: expect.any(String) });
  });

  it('serves the web app for unknown pages but never for /api paths', async () => {
    const webDist = mkdtempSync(join(tmpdir(), 'wt-web-'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Waitlist & Text</title>');
    const withWeb = await appWith({}, webDist);
    try {
      const page = await withWeb.inject({ url: '/account?tab=billing' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.body).toContain('<title>Waitlist & Text</title>');
      for (const url of ['/openings/3f1c', '/reset-password/abc123', '/waitlist/', '/']) {
        expect((await withWeb.inject({ url })).statusCode, url).toBe(200);
      }
      // An address that is no page still gets the app (it draws the 404 page), with the status 404.
      for (const url of ['/account/settings', '/no-such-page', '/openings/1/2']) {
        const unknown = await withWeb.inject({ url });
        expect(unknown.statusCode, url).toBe(404);
        expect(unknown.headers['content-type']).toMatch(/^text\/html/);
        expect(unknown.body).toContain('<title>Waitlist & Text</title>');
      }
      const api = await withWeb.inject({ url: '/api/v1/nope' });
      expect(api.statusCode).toBe(404);
      expect(api.json()).toEqual({ success: false, message: authMessages.notFound });
    } finally {
      await withWeb.close();
      rmSync(webDist, { recursive: true, force: true });
    }
  });

  it('echoes a well-formed X-Request-Id and replaces a malformed one', async () => {
    const given = await t.app.inject({ url: '/api/v1/health', headers: { 'x-request-id': 'req-123_abc' } });
    expect(given.headers['x-request-id']).toBe('req-123_abc');
    const malformed = await t.app.inject({
      url: '/api/v1/health',
      headers: { 'x-request-id': 'bad id\u0001' },
    });
    expect(malformed.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(given.headers['content-security-policy']).toContain("default-src 'self'");
  });
});

describe('dev mailbox', () => {
  it('shows the emails the local provider kept, as JSON and as a page', async () => {
    const owner = await registerUser(t);
    await t.app.outbox.drain();
    const json = await t.app.inject({ url: '/api/v1/dev/mailbox' });
    expect(json.statusCode).toBe(200);
    const mine = json.json().emails.filter((email: { to: string }) => email.to === owner.email);
    expect(mine).toHaveLength(1);
    expect(mine[0].subject).toMatch(/^Your verification code: \d{6}$/);
    const page = await t.app.inject({ url: '/dev/mailbox' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(owner.email);
  });

  it('does not exist when real email (SMTP_URL) is configured', async () => {
    const smtp = await appWith({ SMTP_URL: 'smtp://127.0.0.1:9' });
    try {
      for (const url of ['/api/v1/dev/mailbox', '/dev/mailbox']) {
        const response = await smtp.inject({ url });
        expect(response.statusCode, url).toBe(404);
        expect(response.json()).toEqual({ success: false, message: authMessages.notFound });
      }
    } finally {
      await smtp.close();
    }
  });
});
