import { spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import { adminMessages } from '@waitlist/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig, publicHostProblem } from '../config.ts';
import { localEmails, users } from '../db/schema.ts';
import { owner as fullOwner } from '../features/waitlist/waitlist.test-helpers.ts';
import { createManualClock } from '../lib/clock.ts';
import { serverProcessArgs } from './instance.ts';
import {
  auth,
  createTestApp,
  createTestDatabase,
  onboardedUser,
  type TestApp,
  uniqueEmail,
  uniqueIp,
} from './test-app.ts';

/**
 * Issue 12, findings 1–3: the local tools (mailbox, phone simulator, billing clock) on a public address.
 * On a loopback HOST they answer anyone (the journeys use them so); on any other HOST the server refuses to
 * start, or with LOCAL_TOOLS=admin only an admin session may use them. Never by the request's address.
 */

const toolCalls = [
  { method: 'GET', url: '/api/v1/dev/mailbox' },
  { method: 'GET', url: '/dev/mailbox' },
  { method: 'GET', url: '/api/v1/dev/phone/messages' },
  { method: 'GET', url: '/dev/phone' },
  {
    method: 'POST',
    url: '/api/v1/dev/phone/reply',
    payload: { from: '+12125550100', to: '+15555550100', text: 'YES' },
  },
  {
    method: 'POST',
    url: '/dev/phone/reply',
    payload: { from: '+12125550100', to: '+15555550100', text: 'STOP' },
  },
  { method: 'POST', url: '/api/v1/dev/billing/advance', payload: { days: 31 } },
  { method: 'POST', url: '/api/v1/dev/billing/reset' },
  { method: 'GET', url: '/api/v1/dev/billing/clock' },
] as const;

const call = (t: TestApp, tool: (typeof toolCalls)[number], token?: string, remoteAddress = '127.0.0.1') =>
  t.app.inject({
    method: tool.method,
    url: tool.url,
    headers: token ? auth(token) : {},
    ...('payload' in tool ? { payload: tool.payload } : {}),
    // Even a request that comes from this machine (a proxy on the same host) proves nothing.
    remoteAddress,
  });

describe('start-up on a public HOST', () => {
  it('names what to set when a local provider would be reachable, and is quiet on loopback', () => {
    const problem = publicHostProblem(loadConfig({ HOST: '0.0.0.0' }));
    expect(problem).toBe(
      'Refusing to start: HOST 0.0.0.0 is not loopback and the local mailbox, the local phone, the local billing clock would be reachable from it; set SMTP_URL, PLIVO_AUTH_ID and PLIVO_AUTH_TOKEN, STRIPE_SECRET_KEY (or LOCAL_TOOLS=admin to open the local tools to admin sessions only)',
    );
    expect(problem).not.toContain('\n');
    expect(
      publicHostProblem(loadConfig({ HOST: '203.0.113.7', SMTP_URL: 'smtp://mail.example.com' })),
    ).toMatch(
      /the local phone, the local billing clock would be reachable from it; set PLIVO_AUTH_ID and PLIVO_AUTH_TOKEN, STRIPE_SECRET_KEY/,
    );
    for (const host of ['127.0.0.1', 'localhost', '::1', '127.0.0.2']) {
      expect(publicHostProblem(loadConfig({ HOST: host }))).toBeUndefined();
    }
    expect(publicHostProblem(loadConfig({ HOST: '0.0.0.0', LOCAL_TOOLS: 'admin' }))).toBeUndefined();
    expect(
      publicHostProblem(
        loadConfig({
          HOST: '::',
          SMTP_URL: 'smtp://mail.example.com',
          PLIVO_AUTH_ID: 'id',
          PLIVO_AUTH_TOKEN: 'token',
          STRIPE_SECRET_KEY: 'sk_test_x',
        }),
      ),
    ).toBeUndefined();
    expect(() => loadConfig({ LOCAL_TOOLS: 'everyone' })).toThrow(/LOCAL_TOOLS/);
  });

  it('the server process exits with that one line (NODE_ENV=production, HOST=0.0.0.0, no providers)', async () => {
    const args = await serverProcessArgs();
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, args, {
        env: {
          ...process.env,
          NODE_ENV: 'production',
          HOST: '0.0.0.0',
          PORT: '3291',
          DATA_DIR: 'memory://',
          DATABASE_URL: '',
          SMTP_URL: '',
          PLIVO_AUTH_ID: '',
          PLIVO_AUTH_TOKEN: '',
          STRIPE_SECRET_KEY: '',
          LOCAL_TOOLS: '',
          SERVE_WEB: 'false',
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk) => {
        stderr += String(chunk);
      });
      child.on('exit', (code) => resolve({ code, stderr }));
    });
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^Refusing to start: HOST 0\.0\.0\.0 .*set SMTP_URL/);
  }, 30_000);
});

describe('a public HOST without LOCAL_TOOLS (the app built anyway): the tools do not exist', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { HOST: '0.0.0.0', NODE_ENV: 'production' } });
  });
  afterAll(() => t.close());

  it('answers 404 to every local tool, for visitors and owners alike, whatever the remote address', async () => {
    const owner = await onboardedUser(t);
    for (const tool of toolCalls) {
      expect((await call(t, tool)).statusCode, `${tool.method} ${tool.url}`).toBe(404);
      expect((await call(t, tool, owner.token, '::1')).statusCode, `${tool.method} ${tool.url}`).toBe(404);
    }
  });
});

describe('a public HOST with LOCAL_TOOLS=admin: admin sessions only', () => {
  let t: TestApp;
  const adminEmail = uniqueEmail('boss');
  beforeAll(async () => {
    t = await createTestApp({
      env: { HOST: '0.0.0.0', NODE_ENV: 'production', LOCAL_TOOLS: 'admin', ADMIN_EMAILS: adminEmail },
    });
  });
  afterAll(() => t.close());

  it('finding 1: a reset link asked for a victim cannot be read from the mailbox by a visitor or an owner', async () => {
    const victim = await onboardedUser(t);
    const attacker = await onboardedUser(t);
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgotpassword',
      payload: { email: victim.email },
      remoteAddress: uniqueIp(),
    });
    expect(forgot.statusCode).toBe(200);
    await t.app.outbox.drain();
    for (const url of ['/api/v1/dev/mailbox', '/dev/mailbox']) {
      const anonymous = await t.app.inject({ url, remoteAddress: '127.0.0.1' });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.body).not.toContain('reset-password');
      const owner = await t.app.inject({ url, headers: auth(attacker.token) });
      expect(owner.statusCode).toBe(403);
      expect(owner.json().message).toBe(adminMessages.localToolsAdminOnly);
      expect(owner.body).not.toContain('reset-password');
    }
    const admin = await onboardedUser(t, { email: adminEmail });
    const mailbox = await t.app.inject({ url: '/api/v1/dev/mailbox', headers: auth(admin.token) });
    expect(mailbox.statusCode).toBe(200);
    expect(mailbox.body).toContain('reset-password');
  });

  it('findings 2 and 3: nobody but an admin lists texts, replies as a customer or moves the billing clock', async () => {
    const business = await fullOwner(t);
    const customer = await t.app.inject({
      method: 'POST',
      url: '/api/v1/waitlist',
      headers: auth(business.token),
      payload: { name: 'Cara', phone: '+12125550123', consentMethod: 'verbal' },
    });
    expect(customer.statusCode).toBe(201);
    const clockBefore = await t.app.services.billing.now();
    for (const tool of toolCalls) {
      expect((await call(t, tool)).statusCode, `${tool.method} ${tool.url} as a visitor`).toBe(401);
      expect((await call(t, tool, business.token)).statusCode, `${tool.method} ${tool.url} as an owner`).toBe(
        403,
      );
    }
    // Nothing moved: no inbound text was stored as the customer's, and the clock is where it was.
    const thread = await t.app.inject({
      url: `/api/v1/waitlist/${customer.json().data.id}/messages`,
      headers: auth(business.token),
    });
    expect(thread.json().data.filter((m: { direction: string }) => m.direction === 'in')).toEqual([]);
    expect((await t.app.services.billing.now()).getTime() - clockBefore.getTime()).toBeLessThan(60_000);

    const admin = await onboardedUser(t);
    await t.database.db.update(users).set({ admin: true }).where(eq(users.id, admin.id));
    const advance = await call(t, toolCalls[6], admin.token);
    expect(advance.statusCode).toBe(200);
    expect(advance.json().offsetDays).toBe(31);
  });
});

describe('the public OpenAPI document', () => {
  it('lists no local tool', async () => {
    const t = await createTestApp();
    try {
      const doc = await t.app.inject({ url: '/api/docs/openapi.json' });
      const paths = Object.keys(doc.json().paths);
      expect(paths.length).toBeGreaterThan(50);
      expect(paths.filter((path) => path.includes('/dev/'))).toEqual([]);
      expect(doc.body).not.toContain('billing clock');
    } finally {
      await t.close();
    }
  });
});

describe('codes and links in the log', () => {
  async function logOf(env: Record<string, string>) {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const database = await createTestDatabase();
    const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'http://app.test', ...env });
    const app = await buildApp({
      config,
      database,
      clock: createManualClock(new Date('2026-11-23T10:00:00Z')),
      logger: { level: 'info', stream },
    });
    try {
      const email = uniqueEmail();
      const register = await app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        payload: { firstName: 'Lou', lastName: 'Log', email, password: 'secret123' },
      });
      expect(register.statusCode).toBe(201);
      await app.inject({ method: 'POST', url: '/api/v1/auth/forgotpassword', payload: { email } });
      await app.outbox.drain();
      const mail = await database.db.select().from(localEmails).where(eq(localEmails.to, email));
      const code = mail.map((m) => m.text.match(/\b(\d{6})\b/)?.[1]).find(Boolean)!;
      const link = mail.map((m) => m.text.match(/(http\S+reset-password\/\S+)/)?.[1]).find(Boolean)!;
      expect(code).toMatch(/^\d{6}$/);
      expect(link).toContain('/reset-password/');
      return { log: lines.join(''), code, token: link.split('/').pop()! };
    } finally {
      await app.close();
      await database.close();
    }
  }

  it('stay out of the log on a public HOST, and appear on loopback with the local mailbox', async () => {
    const publicHost = await logOf({ HOST: '0.0.0.0', LOCAL_TOOLS: 'admin' });
    expect(publicHost.log).toContain('(in the local mailbox)');
    expect(publicHost.log).not.toContain(publicHost.code);
    expect(publicHost.log).not.toContain(publicHost.token);
    const loopback = await logOf({ HOST: '127.0.0.1' });
    expect(loopback.log).toContain(loopback.code);
    expect(loopback.log).toContain(loopback.token);
  });
});
