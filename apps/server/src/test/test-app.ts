import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import { type DatabaseHandle, IN_MEMORY, openDatabase } from '../db/client.ts';
import { localEmails } from '../db/schema.ts';
import type { IcsParserOptions } from '../features/calendar/ics-parser.ts';
import { createManualClock } from '../lib/clock.ts';
import type { EmailProvider } from '../providers/email/index.ts';
import { touchesDatabase } from './database-files.ts';
import { PGLITE_TARBALL_ENV, TEMPLATE_DATABASE_ENV, waitForNoSessions } from './global-setup.ts';

/** The migrated tarball of the run (global-setup.ts), read once per test file's process. */
let migratedPglite: Blob | undefined;

/** A file the rule of database-files.ts calls pure must not open a test database (it would skip PostgreSQL). */
function checkTheFileIsCountedAsTouchingTheDatabase() {
  const file = (globalThis as { __vitest_worker__?: { filepath?: string } }).__vitest_worker__?.filepath;
  if (file && /\.test\.ts$/.test(file) && !touchesDatabase(file))
    throw new Error(
      `${file} opens a test database, but src/test/database-files.ts counts it as pure, so the PostgreSQL pass skips it: make the rule see it`,
    );
}

/**
 * A real database per test file: in-memory PGlite by default, or a fresh PostgreSQL database on
 * TEST_DATABASE_URL's server when TEST_DB=postgres (created here, dropped on close). Under the API suite's
 * global set-up (global-setup.ts) both start from the run's one migrated copy; without it (benches, chaos,
 * the two-instance suite) they migrate from nothing.
 */
export async function createTestDatabase(): Promise<DatabaseHandle & { url?: string }> {
  checkTheFileIsCountedAsTouchingTheDatabase();
  if (process.env.TEST_DB !== 'postgres') {
    const tarball = process.env[PGLITE_TARBALL_ENV];
    if (tarball) {
      migratedPglite ??= new Blob([readFileSync(tarball)]);
      return openDatabase({ dataDir: IN_MEMORY, loadDataDir: migratedPglite });
    }
    const handle = openDatabase({ dataDir: IN_MEMORY });
    await handle.migrate();
    return handle;
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const template = process.env[TEMPLATE_DATABASE_ENV];
  const name = `wt_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  // A burst of 70 requests on one business's locked row, beside the other suites on two cores, can keep the
  // last in the pool's queue past production's 5 s (a 503 there): the wait is a time-out, not what is tested.
  const handle = openDatabase({ url: url.toString(), connectionWaitMs: 30_000 });
  if (!template) await handle.migrate();
  return {
    ...handle,
    url: url.toString(),
    async close() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      // pool.end() resolves before its sockets have closed; dropping "with (force)" then would kill a
      // closing connection, whose FATAL error nobody listens for any more. Wait for them to go first.
      await waitForNoSessions(cleanup, name).catch(() => undefined);
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  clock: ReturnType<typeof createManualClock>;
  config: Config;
  close(): Promise<void>;
}

export async function createTestApp(
  options: {
    env?: Record<string, string>;
    emailProvider?: EmailProvider;
    startAt?: Date;
    calendarParse?: IcsParserOptions;
  } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const clock = createManualClock(options.startAt ?? new Date('2026-11-23T15:00:00Z'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://app.test',
    ...options.env,
  });
  const app = await buildApp({
    config,
    database,
    clock,
    logger: false,
    emailProvider: options.emailProvider,
    // Exact backoff, like the manual clock: tests move time to the retry instead of guessing it.
    retryJitter: (delayMs) => delayMs,
    ...(options.calendarParse ? { calendarParse: options.calendarParse } : {}),
  });
  await app.ready();
  return {
    app,
    database,
    clock,
    config,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

// ---- request helpers ----

export const auth = (token: string) => ({ authorization: `Bearer ${token}` });

let counter = 0;
let ipCounter = 0;
/** A fresh client address for `inject({ remoteAddress })`, so per-IP rate limits of one test do not leak into another. */
export function uniqueIp() {
  ipCounter += 1;
  return `10.${process.pid % 250}.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
}

export function login(t: TestApp, email: string, password: string, remoteAddress = uniqueIp()) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email, password },
    remoteAddress,
  });
}

const SECRET_KEY = /pass|hash|token|code|secret|salt/i;

/**
 * Walks an answer and returns the path of every key that looks like a secret (password, hash, token, code…)
 * and of every value that looks like a password hash. Only the top-level `token` (the caller's own new
 * session) may appear. An empty list means nothing secret left the server.
 */
export function secretsIn(body: unknown): string[] {
  const found: string[] = [];
  const walk = (value: unknown, path: string) => {
    if (typeof value === 'string') {
      if (/^\$argon2/.test(value)) found.push(path || '(root)');
      return;
    }
    if (!value || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value)) {
      const childPath = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
      if (SECRET_KEY.test(key) && childPath !== 'token') found.push(childPath);
      walk(child, childPath);
    }
  };
  walk(body, '');
  return found;
}
export function uniqueEmail(prefix = 'owner') {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}${counter}@example.com`;
}

export async function registerUser(
  t: TestApp,
  overrides: Partial<{ firstName: string; lastName: string; email: string; password: string }> = {},
) {
  const body = {
    firstName: 'Bella',
    lastName: 'Rossi',
    email: uniqueEmail(),
    password: 'secret123',
    ...overrides,
  };
  // Each from its own address: sign-up is throttled per address (issue 12).
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    payload: body,
    remoteAddress: uniqueIp(),
  });
  if (response.statusCode !== 201)
    throw new Error(`register failed: ${response.statusCode} ${response.body}`);
  const json = response.json();
  return { ...body, token: json.token as string, user: json.user, id: json.user.id as string };
}

/** Delivers queued email through the outbox and returns the newest one sent to `to` by the local provider. */
export async function latestEmailTo(t: TestApp, to: string) {
  await t.app.outbox.drain();
  const [email] = await t.database.db
    .select()
    .from(localEmails)
    .where(eq(localEmails.to, to.toLowerCase()))
    .orderBy(desc(localEmails.seq))
    .limit(1);
  return email;
}

export async function latestCodeFor(t: TestApp, to: string): Promise<string> {
  const email = await latestEmailTo(t, to);
  const code = email?.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no verification code emailed to ${to}`);
  return code;
}

/** A user who registered and entered the code emailed to them (an admin, when ADMIN_EMAILS lists them). */
export async function verifiedUser(t: TestApp, overrides: Parameters<typeof registerUser>[1] = {}) {
  const user = await registerUser(t, overrides);
  const code = await latestCodeFor(t, user.email);
  const verify = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/verify-account',
    headers: auth(user.token),
    payload: { verificationCode: code },
    remoteAddress: uniqueIp(),
  });
  if (verify.statusCode !== 200) throw new Error(`verify failed: ${verify.body}`);
  return { ...user, user: verify.json().user };
}

/** A user who registered, verified and submitted business details: a "full user" of SPEC §6. */
export async function onboardedUser(t: TestApp, overrides: Parameters<typeof registerUser>[1] = {}) {
  const user = await verifiedUser(t, overrides);
  const business = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/business-verification',
    headers: auth(user.token),
    payload: { businessName: 'Bella Salon', businessPhone: '(555) 123-4567' },
  });
  if (business.statusCode !== 200) throw new Error(`business verification failed: ${business.body}`);
  return user;
}
