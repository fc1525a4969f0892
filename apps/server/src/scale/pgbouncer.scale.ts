import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client.ts';
import { messages, users } from '../db/schema.ts';
import { api, type Instance, startInstance } from '../test/instance.ts';
import { createTestDatabase } from '../test/test-app.ts';
import { type PgBouncer, startPgbouncer } from './pgbouncer.ts';

/**
 * The first step past one database (docs/SCALE.md, issue 40): a server process whose DATABASE_URL is
 * Debian's PgBouncer in transaction mode, with fewer server connections than the app's pool, so every
 * statement may land on another PostgreSQL session than the one before it. Named prepared statements,
 * session advisory locks, SET and LISTEN do not survive that; the app runs with DATABASE_POOLER=transaction
 * and everything it does must still answer. Needs TEST_DATABASE_URL and `apt-get install -y pgbouncer`.
 */
if (!process.env.TEST_DATABASE_URL)
  throw new Error('the PgBouncer test needs TEST_DATABASE_URL (PostgreSQL)');

let database: DatabaseHandle & { url?: string };
let bouncer: PgBouncer;
let server: Instance;

beforeAll(async () => {
  database = await createTestDatabase();
  bouncer = await startPgbouncer(database.url!, { poolSize: 3 });
  const name = new URL(database.url!).pathname.slice(1);
  // The migrations run through PgBouncer too (under a transaction-scoped advisory lock), finding them applied.
  server = await startInstance({ DATABASE_URL: bouncer.url(name), DATABASE_POOLER: 'transaction' });
});

afterAll(async () => {
  await server?.stop();
  await bouncer?.stop();
  await database?.close();
});

/** `count` calls of `call`, `inFlight` at a time; their answers' statuses in order. */
async function inBatches(count: number, inFlight: number, call: (i: number) => Promise<{ status: number }>) {
  const statuses: number[] = [];
  for (let start = 0; start < count; start += inFlight) {
    const batch = Array.from({ length: Math.min(inFlight, count - start) }, (_, k) => call(start + k));
    statuses.push(...(await Promise.all(batch)).map((answer) => answer.status));
  }
  return statuses;
}

/** Customers added at once (within a trial's customer limit). */
const CUSTOMERS = 20;
const phoneOf = (i: number) => `+1212555${String(7000 + i).padStart(4, '0')}`;

describe('the API through PgBouncer in transaction mode (DATABASE_POOLER=transaction)', () => {
  let token: string;
  let number: string;

  it('signs up, and onboards a business with a number (writes in transactions)', async () => {
    const registered = await api(server.url, 'POST', '/auth/register', {
      body: {
        firstName: 'Pat',
        lastName: 'Bouncer',
        email: 'pat@pgbouncer.test',
        password: 'a-long-password-1',
      },
    });
    expect(registered.status, JSON.stringify(registered.json)).toBe(201);
    token = registered.json.token;
    // The emailed code is not what this test is about: the owner is marked verified directly.
    await database.db.update(users).set({ verified: true }).where(eq(users.id, registered.json.user.id));
    const business = await api(server.url, 'POST', '/auth/business-verification', {
      token,
      body: { businessName: 'Bouncer Salon', businessPhone: '(555) 123-4567' },
    });
    expect(business.status, JSON.stringify(business.json)).toBe(200);
    expect((await api(server.url, 'POST', '/phone-number/request', { token, body: {} })).status).toBe(200);
    const verified = await api(server.url, 'POST', '/phone-number/verify', { token, body: {} });
    expect(verified.json.data?.status).toBe('verified');
    number = verified.json.data.number;
  });

  it('answers 300 authenticated reads of GET /auth/me, 30 at a time, all 200', async () => {
    const statuses = await inBatches(300, 30, () => api(server.url, 'GET', '/auth/me', { token }));
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });

  it('adds 20 customers at once, and answers 300 reads of the waitlist (the session row lookup), all 200', async () => {
    const added = await inBatches(CUSTOMERS, CUSTOMERS, (i) =>
      api(server.url, 'POST', '/waitlist', {
        token,
        body: { name: `Customer ${i}`, phone: phoneOf(i), consentMethod: 'verbal' },
      }),
    );
    expect(added.filter((status) => status !== 201)).toEqual([]);
    const reads = await inBatches(300, 30, () => api(server.url, 'GET', '/waitlist', { token }));
    expect(reads.filter((status) => status !== 200)).toEqual([]);
    const list = await api(server.url, 'GET', '/waitlist', { token });
    expect(list.json.data).toHaveLength(CUSTOMERS);
  });

  it('stores 20 customers’ replies sent at once (the inbound statements), each once', async () => {
    const replies = await inBatches(CUSTOMERS, CUSTOMERS, (i) =>
      api(server.url, 'POST', '/dev/phone/reply', {
        body: { from: phoneOf(i), to: number, text: 'Running 5 minutes late' },
      }),
    );
    expect(replies.filter((status) => status !== 200)).toEqual([]);
    const [stored] = await database.db
      .select({ count: sql<number>`count(*)::int` })
      .from(messages)
      .where(eq(messages.direction, 'in'));
    expect(stored!.count).toBe(CUSTOMERS);
    expect(server.log()).not.toMatch(/prepared statement|advisory/i);
  });
});
