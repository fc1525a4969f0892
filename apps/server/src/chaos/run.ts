/**
 * `npm run chaos`: faults tried on real server processes, each reporting what was sent, lost and duplicated
 * (issue 17; figures in docs/RELIABILITY.md). Long-running, so not part of `npm test`. Everything runs on
 * this machine: a private PostgreSQL cluster (initdb, its own port; never the shared server), local Plivo and
 * SMTP servers, and the instances as plain processes.
 *
 *   npm run chaos                 every fault
 *   npm run chaos -- kill alert   only the faults whose name contains one of the words
 *   npm run chaos -- --pg-port=55441   the private cluster's port (default 55440)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { type DatabaseHandle, openDatabase } from '../db/client.ts';
import { messages, outbox, users } from '../db/schema.ts';
import { addCustomer, businessWithNumber } from '../features/messaging/messaging.test-helpers.ts';
import { systemClock } from '../lib/clock.ts';
import { type FakePlivo, startFakePlivo } from '../test/fake-plivo.ts';
import { startFakeSmtp } from '../test/fake-smtp.ts';
import { FAKE_PRICES, FAKE_SECRET_KEY, startFakeStripe } from '../test/fake-stripe.ts';
import { api, type Instance, startInstance } from '../test/instance.ts';
import type { TestApp } from '../test/test-app.ts';
import { type PrivatePostgres, startPrivatePostgres } from './private-postgres.ts';

const args = process.argv.slice(2);
const PG_PORT = Number(args.find((arg) => arg.startsWith('--pg-port='))?.split('=')[1] ?? 55440);
const filters = args.filter((arg) => !arg.startsWith('--')).map((word) => word.toLowerCase());
const results: {
  fault: string;
  sent: string;
  lost: number;
  duplicated: number;
  /** Duplicates inside a documented window (an SMTP server that accepted after our timeout). */
  expectedDuplicates?: number;
  notes: string;
}[] = [];
const say = (line: string) => console.log(`\x1b[36m›\x1b[0m ${line}`);

let cluster: PrivatePostgres;
async function newDatabase(): Promise<string> {
  const name = `chaos_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  return cluster.url.replace(/\/postgres$/, `/${name}`);
}

/** An owner on Growth with a verified Plivo number and `count` waiting customers, made through the app itself. */
async function prepareOwner(database: DatabaseHandle, plivo: FakePlivo | undefined, count: number) {
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://app.test',
  };
  if (plivo) Object.assign(env, plivoEnv(plivo));
  const config = loadConfig(env);
  const app = await buildApp({ config, database, clock: systemClock, logger: false });
  const t = { app, database, clock: systemClock, config, close: async () => {} } as unknown as TestApp;
  const owner = await businessWithNumber(t, plivo);
  await database.db.update(users).set({ subscriptionPlan: 'growth' }).where(eq(users.id, owner.id));
  const list = [];
  for (let n = 0; n < count; n += 1) list.push(await addCustomer(t, owner.id, { name: `Customer ${n}` }));
  await app.close();
  return { owner, customers: list };
}
const plivoEnv = (plivo: FakePlivo, via?: string) => ({
  PLIVO_AUTH_ID: plivo.authId,
  PLIVO_AUTH_TOKEN: plivo.authToken,
  PLIVO_API_URL: via ? `${plivo.url}/via-${via}` : plivo.url,
});

async function login(instance: Instance, email: string, password: string) {
  const response = await api(instance.url, 'POST', '/auth/login', { body: { email, password } });
  if (response.status !== 200) throw new Error(`login failed: ${response.status}`);
  return response.json.token as string;
}
async function openAlert(instance: Instance, token: string) {
  const created = await api(instance.url, 'POST', '/openings', {
    token,
    body: {
      startsAt: new Date(Date.now() + 3 * 3_600_000).toISOString(),
      durationMinutes: 45,
      service: 'Haircut',
      mode: 'all',
    },
  });
  if (created.status !== 201)
    throw new Error(`opening failed: ${created.status} ${JSON.stringify(created.json)}`);
}
async function settled(database: DatabaseHandle, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await database.db
      .select({ pending: sql<number>`count(*)::int` })
      .from(outbox)
      .where(eq(outbox.status, 'pending'));
    if (row!.pending === 0) return true;
    if (Date.now() > deadline) return false;
    await sleep(250);
  }
}
/** Per expected recipient, how many times the provider got it: sent once, lost (0), duplicated (extra). */
function tally(expected: string[], delivered: string[]) {
  const counts = new Map(expected.map((key) => [key, 0]));
  for (const key of delivered) if (counts.has(key)) counts.set(key, counts.get(key)! + 1);
  const values = [...counts.values()];
  return {
    once: values.filter((c) => c === 1).length,
    lost: values.filter((c) => c === 0).length,
    duplicated: values.reduce((sum, c) => sum + Math.max(0, c - 1), 0),
  };
}
const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
async function timed(count: number, call: () => Promise<unknown>) {
  const times: number[] = [];
  for (let n = 0; n < count; n += 1) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  return p50(times);
}

// ---- faults ----

async function killDuringAlert() {
  const fault = 'kill -9 of an instance mid 100-customer alert';
  say(`${fault}…`);
  const url = await newDatabase();
  const database = openDatabase({ url });
  await database.migrate();
  const plivo = await startFakePlivo();
  const { owner, customers: list } = await prepareOwner(database, plivo, 100);
  const common = { DATABASE_URL: url, PUBLIC_URL: 'http://app.test', SMS_SEND_RATE: '20' };
  const a = await startInstance({ ...common, ...plivoEnv(plivo, 'a') });
  const b = await startInstance({ ...common, ...plivoEnv(plivo, 'b') });
  let fromA = 0;
  let killedAt = -1;
  // The worst moment: Plivo has taken A's 10th text, and A dies before it hears the answer or commits.
  plivo.onMessage = async (message) => {
    if (message.via !== 'a' || killedAt >= 0) return;
    fromA += 1;
    if (fromA === 10) {
      killedAt = plivo.messages.length;
      await a.kill9();
    }
  };
  const token = await login(a, owner.email, owner.password);
  const started = Date.now();
  await openAlert(a, token);
  const done = await settled(database, 180_000);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const counts = tally(
    list.map((c) => c.phone.slice(1)),
    plivo.messages.map((m) => m.dst),
  );
  const asked = plivo.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/Message/')).length;
  const byA = plivo.messages.filter((m) => m.via === 'a').length;
  results.push({
    fault,
    sent: `${counts.once}/100`,
    lost: counts.lost,
    duplicated: counts.duplicated,
    notes: `A killed after Plivo took its text #${killedAt} (answer never read); A sent ${byA}, B the rest, in ${seconds} s${done ? '' : ' (outbox NOT settled)'}; Plivo asked ${asked}× before a resend`,
  });
  await b.stop();
  await database.close();
  await plivo.close();
}

async function providerOutage(kind: '5xx' | 'hang') {
  const fault =
    kind === '5xx'
      ? 'Plivo and SMTP answer 5xx for 20 s'
      : 'Plivo and SMTP hang (answer after 60 s) for 60 s';
  say(`${fault}…`);
  const url = await newDatabase();
  const database = openDatabase({ url });
  await database.migrate();
  const plivo = await startFakePlivo();
  const smtp = await startFakeSmtp();
  const { owner, customers: list } = await prepareOwner(database, plivo, 20);
  const common = { DATABASE_URL: url, PUBLIC_URL: 'http://app.test', SMTP_URL: smtp.url, ...plivoEnv(plivo) };
  const a = await startInstance(common);
  const b = await startInstance(common);
  const token = await login(a, owner.email, owner.password);
  const me = () => api(b.url, 'GET', '/auth/me', { token });
  const before = await timed(20, me);

  const outageMs = kind === '5xx' ? 20_000 : 60_000;
  plivo.outage(kind === '5xx' ? { status: 503 } : { hangMs: 60_000 });
  smtp.outage(kind === '5xx' ? { code: 451 } : { hangMs: 60_000 });
  const outageStarted = Date.now();
  await openAlert(a, token);
  const emails = Array.from({ length: 5 }, (_, n) => `chaos.${Date.now().toString(36)}.${n}@example.com`);
  const registerTimes: number[] = [];
  for (const [n, email] of emails.entries()) {
    const started = performance.now();
    const response = await api([a, b][n % 2]!.url, 'POST', '/auth/register', {
      body: { firstName: 'Chaos', lastName: 'Test', email, password: 'secret123' },
    });
    registerTimes.push(performance.now() - started);
    if (response.status !== 201) throw new Error(`register failed during the outage: ${response.status}`);
  }
  await sleep(3_000); // the workers are now busy failing or waiting on the provider
  const during = await timed(20, me);
  await sleep(Math.max(0, outageMs - (Date.now() - outageStarted)));
  plivo.outage(null);
  smtp.outage(null);
  const recovered = Date.now();
  const done = await settled(database, 240_000);
  const drainSeconds = ((Date.now() - recovered) / 1000).toFixed(1);
  const texts = tally(
    list.map((c) => c.phone.slice(1)),
    plivo.messages.map((m) => m.dst),
  );
  const mails = tally(
    emails,
    smtp.received.flatMap((mail) => mail.to),
  );
  const messageIds = smtp.received.map((mail) => /^Message-ID:\s*(\S+)/im.exec(mail.raw)?.[1]);
  const distinctMails = new Set(messageIds).size;
  const [retried] = await database.db
    .select({ rows: sql<number>`count(*)::int`, max: sql<number>`coalesce(max(${outbox.attempts}), 0)::int` })
    .from(outbox)
    .where(sql`${outbox.attempts} > 1`);
  results.push({
    fault,
    sent: `texts ${texts.once}/20, emails ${mails.once}/5`,
    lost: texts.lost + mails.lost,
    duplicated: texts.duplicated + mails.duplicated,
    expectedDuplicates: smtp.received.length - distinctMails,
    notes: `GET /auth/me p50 ${before.toFixed(1)} ms before, ${during.toFixed(1)} ms during; sign-up p50 ${p50(registerTimes).toFixed(0)} ms during; ${smtp.received.length} SMTP deliveries with ${distinctMails} distinct Message-IDs; ${retried!.rows} rows retried (up to ${retried!.max} attempts); all delivered ${drainSeconds} s after recovery${done ? '' : ' (outbox NOT settled)'}`,
  });
  await Promise.all([a.stop(), b.stop()]);
  await database.close();
  await plivo.close();
  await smtp.close();
}

/** Writes texts to the customers in turn from `lanes` loops; each answer is classified. */
function writeLoad(instance: Instance, token: string, customerIds: string[], lanes = 4) {
  const state = {
    stop: false,
    acknowledged: [] as string[],
    clean503: 0,
    unclean: [] as string[],
    afterStop: 0,
  };
  const lane = async (id: number) => {
    for (let n = 0; !state.stop; n += 1) {
      try {
        const customerId = customerIds[(id + n * lanes) % customerIds.length]!;
        const response = await api(instance.url, 'POST', `/waitlist/${customerId}/messages`, {
          token,
          body: { body: `Write ${id}.${n}` },
        });
        if (response.status === 201) state.acknowledged.push(response.json.data.id);
        else if (response.status === 503 && typeof response.json?.message === 'string') {
          state.clean503 += 1;
          await sleep(50);
        } else state.unclean.push(`${response.status}`);
      } catch (error) {
        if (state.stop) state.afterStop += 1;
        else state.unclean.push(error instanceof Error ? error.message : String(error));
      }
    }
  };
  const done = Promise.all(Array.from({ length: lanes }, (_, id) => lane(id)));
  return { state, done };
}
async function missing(database: DatabaseHandle, ids: string[]) {
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await database.db
      .select({ id: messages.id })
      .from(messages)
      .where(inArray(messages.id, ids.slice(i, i + 500)));
    for (const row of rows) found.add(row.id);
  }
  return ids.filter((id) => !found.has(id));
}

async function postgresRestart() {
  const fault = 'PostgreSQL restarted under write load (down ~5 s)';
  say(`${fault}…`);
  const url = await newDatabase();
  const database = openDatabase({ url });
  await database.migrate();
  const plivo = await startFakePlivo();
  const { owner, customers: list } = await prepareOwner(database, plivo, 20);
  const a = await startInstance({
    DATABASE_URL: url,
    PUBLIC_URL: 'http://app.test',
    ...plivoEnv(plivo),
    SMS_SEND_RATE: '1000',
  });
  const token = await login(a, owner.email, owner.password);
  const load = writeLoad(
    a,
    token,
    list.map((c) => c.id),
  );
  await sleep(3_000);
  const ackBefore = load.state.acknowledged.length;
  cluster.stop();
  const downAt = Date.now();
  await sleep(5_000);
  cluster.start();
  const downSeconds = ((Date.now() - downAt) / 1000).toFixed(1);
  await sleep(4_000);
  load.state.stop = true;
  await load.done;
  const recovered = load.state.acknowledged.length > ackBefore;
  if (a.child.exitCode !== null || a.child.signalCode !== null) {
    console.error(`the instance died while the database was down:\n${a.log().slice(-3000)}`);
  }
  const reopened = openDatabase({ url });
  await settled(reopened, 60_000);
  const lost = await missing(reopened, load.state.acknowledged);
  const bodies = await reopened.db
    .select({ body: messages.body })
    .from(messages)
    .where(
      and(eq(messages.direction, 'out'), inArray(messages.id, load.state.acknowledged.slice(0, 100_000))),
    );
  const atPlivo = plivo.messages.map((m) => m.text);
  const texts = tally(
    bodies.map((row) => row.body),
    atPlivo,
  );
  results.push({
    fault,
    sent: `${load.state.acknowledged.length} writes acknowledged, ${texts.once} texts at Plivo once`,
    lost: lost.length + texts.lost,
    duplicated: texts.duplicated,
    notes: `down ${downSeconds} s: ${load.state.clean503} answers were 503 with a message, ${load.state.unclean.length} other failures${load.state.unclean.length ? ` (${[...new Set(load.state.unclean)].slice(0, 3).join('; ')})` : ''}; writes ${recovered ? 'resumed' : 'did NOT resume'} without restarting the app`,
  });
  await a.stop();
  await reopened.close();
  await database.close();
  await plivo.close();
}

async function killUnderWriteLoad(kind: 'PGlite' | 'PostgreSQL') {
  const fault = `kill -9 under write load (${kind})`;
  say(`${fault}…`);
  let dataDir: string | undefined;
  let url: string | undefined;
  let database: DatabaseHandle;
  if (kind === 'PostgreSQL') {
    url = await newDatabase();
    database = openDatabase({ url });
  } else {
    dataDir = mkdtempSync(join(tmpdir(), 'wt-chaos-pglite-'));
    database = openDatabase({ dataDir });
  }
  await database.migrate();
  const { owner, customers: list } = await prepareOwner(database, undefined, 5);
  if (dataDir) await database.close();
  const a = await startInstance(url ? { DATABASE_URL: url } : { DATA_DIR: dataDir! });
  const token = await login(a, owner.email, owner.password);
  const load = writeLoad(
    a,
    token,
    list.map((c) => c.id),
  );
  await sleep(6_000);
  load.state.stop = true;
  await a.kill9();
  await load.done;
  const reopened = url ? database : openDatabase({ dataDir: dataDir! });
  const lost = await missing(reopened, load.state.acknowledged);
  results.push({
    fault,
    sent: `${load.state.acknowledged.length} writes acknowledged`,
    lost: lost.length,
    duplicated: 0,
    notes: `${load.state.afterStop} requests in flight at the kill (not acknowledged, so not counted)`,
  });
  await reopened.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}

/** Forwards to `target` unless told to answer `status` or to hold requests (a provider outage). */
async function faultyProxy(target: string) {
  let fault: { status: number } | { hang: true } | null = null;
  const server = createServer((req, res) => {
    const current = fault;
    if (current && 'status' in current) {
      res.writeHead(current.status, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ error: { type: 'api_error', message: 'outage' } }));
    }
    if (current) return; // hang: never answer
    const forward = httpRequest(
      new URL(req.url ?? '/', target),
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    outage(next: typeof fault) {
      fault = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function stripeOutage() {
  const fault = 'Stripe answers 5xx, then hangs for 60 s';
  say(`${fault}…`);
  const url = await newDatabase();
  const database = openDatabase({ url });
  await database.migrate();
  const { owner } = await prepareOwner(database, undefined, 0);
  const stripe = await startFakeStripe();
  const faulty = await faultyProxy(stripe.url);
  const a = await startInstance({
    DATABASE_URL: url,
    PUBLIC_URL: 'http://app.test',
    STRIPE_SECRET_KEY: FAKE_SECRET_KEY,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_fake',
    STRIPE_WEBHOOK_SECRET: 'whsec_fake',
    STRIPE_API_URL: faulty.url,
    STRIPE_PRICE_STARTER_MONTHLY: FAKE_PRICES.STARTER.monthly,
    STRIPE_PRICE_STARTER_YEARLY: FAKE_PRICES.STARTER.yearly,
    STRIPE_PRICE_GROWTH_MONTHLY: FAKE_PRICES.GROWTH.monthly,
    STRIPE_PRICE_GROWTH_YEARLY: FAKE_PRICES.GROWTH.yearly,
  });
  const token = await login(a, owner.email, owner.password);
  const me = () => api(a.url, 'GET', '/auth/me', { token });
  const pricing = async () => {
    const started = performance.now();
    const response = await api(a.url, 'GET', '/stripe/pricing', { token });
    return { status: response.status, ms: performance.now() - started, message: response.json?.message };
  };
  const before = await timed(20, me);
  faulty.outage({ status: 503 });
  const on5xx = await pricing();
  faulty.outage({ hang: true });
  const hung = pricing();
  await sleep(2_000);
  const during = await timed(20, me);
  const onHang = await hung;
  faulty.outage(null);
  const after = await pricing();
  results.push({
    fault,
    sent: 'nothing queued for Stripe (its calls run inside the request, with idempotency keys)',
    lost: 0,
    duplicated: 0,
    notes: `GET /auth/me p50 ${before.toFixed(1)} ms before, ${during.toFixed(1)} ms while Stripe hangs; GET /stripe/pricing (asks Stripe) answered ${on5xx.status} in ${on5xx.ms.toFixed(0)} ms on 5xx, ${onHang.status} in ${(onHang.ms / 1000).toFixed(1)} s on a hang ("${onHang.message}"), ${after.status} once Stripe is back`,
  });
  await a.stop();
  await faulty.close();
  await stripe.close();
  await database.close();
}

const faults: [string, () => Promise<void>][] = [
  ['kill alert', killDuringAlert],
  ['provider 5xx', () => providerOutage('5xx')],
  ['provider hang', () => providerOutage('hang')],
  ['provider stripe', stripeOutage],
  ['postgres restart', postgresRestart],
  ['kill write pglite', () => killUnderWriteLoad('PGlite')],
  ['kill write postgres', () => killUnderWriteLoad('PostgreSQL')],
];

say(`starting a private PostgreSQL cluster on 127.0.0.1:${PG_PORT}`);
cluster = startPrivatePostgres(PG_PORT);
const started = Date.now();
try {
  for (const [name, run] of faults) {
    if (filters.length && !filters.some((word) => name.includes(word))) continue;
    await run();
  }
} finally {
  cluster.destroy();
}
console.log(
  `\nnpm run chaos${filters.length ? ` -- ${filters.join(' ')}` : ''} · ${new Date().toISOString()} · ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
);
console.log('| fault | sent | lost | duplicated | notes |');
console.log('| --- | --- | --- | --- | --- |');
for (const r of results) {
  const known = r.expectedDuplicates
    ? ` (${r.expectedDuplicates} an email re-sent with the same Message-ID)`
    : '';
  console.log(`| ${r.fault} | ${r.sent} | ${r.lost} | ${r.duplicated}${known} | ${r.notes} |`);
}
const bad = results.filter((r) => r.lost > 0 || r.duplicated > (r.expectedDuplicates ?? 0));
process.exit(bad.length ? 1 : 0);
