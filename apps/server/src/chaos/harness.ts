import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { offerSettings, outbox, users } from '../db/schema.ts';
import { addCustomer, businessWithNumber } from '../features/messaging/messaging.test-helpers.ts';
import { systemClock } from '../lib/clock.ts';
import { daytimeZone } from '../test/daytime-zone.mjs';
import type { FakePlivo } from '../test/fake-plivo.ts';
import { api, type Instance } from '../test/instance.ts';
import type { TestApp } from '../test/test-app.ts';
import { type PrivatePostgres, startPrivatePostgres } from './private-postgres.ts';

/** What every chaos fault shares: the report, the private cluster, an owner ready to text, and measuring. */

/** One line of the report per fault. */
export const results: {
  fault: string;
  sent: string;
  lost: number;
  duplicated: number;
  /** Duplicates inside a documented window (an SMTP server that accepted after our timeout). */
  expectedDuplicates?: number;
  notes: string;
}[] = [];
export const say = (line: string) => console.log(`\x1b[36m›\x1b[0m ${line}`);

export let cluster: PrivatePostgres;
export function startCluster(port: number) {
  cluster = startPrivatePostgres(port);
  return cluster;
}
export async function newDatabase(): Promise<string> {
  const name = `chaos_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  return cluster.url.replace(/\/postgres$/, `/${name}`);
}

/** An owner on Growth with a verified Plivo number and `count` waiting customers, made through the app itself. */
export async function prepareOwner(database: DatabaseHandle, plivo: FakePlivo | undefined, count: number) {
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
  await database.db
    .update(users)
    .set({ subscriptionPlan: 'growth', timeZone: daytimeZone() })
    .where(eq(users.id, owner.id));
  // Every fault run alerts the same customers again: the daily cap (issue 26) must not count as a lost text.
  await database.db.insert(offerSettings).values({ userId: owner.id, dailyOfferCap: 20 });
  const list = [];
  for (let n = 0; n < count; n += 1) list.push(await addCustomer(t, owner.id, { name: `Customer ${n}` }));
  await app.close();
  return { owner, customers: list };
}
export const plivoEnv = (plivo: FakePlivo, via?: string) => ({
  PLIVO_AUTH_ID: plivo.authId,
  PLIVO_AUTH_TOKEN: plivo.authToken,
  PLIVO_API_URL: via ? `${plivo.url}/via-${via}` : plivo.url,
});

export async function login(instance: Instance, email: string, password: string) {
  const response = await api(instance.url, 'POST', '/auth/login', { body: { email, password } });
  if (response.status !== 200) throw new Error(`login failed: ${response.status}`);
  return response.json.token as string;
}
export async function openAlert(instance: Instance, token: string) {
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
export async function settled(database: DatabaseHandle, timeoutMs: number) {
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
export const p50 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
export async function timed(count: number, call: () => Promise<unknown>) {
  const times: number[] = [];
  for (let n = 0; n < count; n += 1) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  return p50(times);
}
