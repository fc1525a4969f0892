import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inArray } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { type DatabaseHandle, openDatabase } from '../../db/client.ts';
import { messages } from '../../db/schema.ts';
import { createManualClock } from '../../lib/clock.ts';
import { api, startInstance } from '../../test/instance.ts';
import { createTestDatabase, type TestApp } from '../../test/test-app.ts';
import { addCustomer, businessWithNumber } from '../messaging/messaging.test-helpers.ts';

/**
 * kill -9 of a real server process in the middle of a write load (issue 17): every write it acknowledged
 * (a 201 with the new text's id) is in the database afterwards, on PGlite (files in DATA_DIR) and on
 * PostgreSQL alike. Runs in both API suites: TEST_DB picks the database.
 */
const onPostgres = process.env.TEST_DB === 'postgres';
let dataDir: string | undefined;
let shared: (DatabaseHandle & { url?: string }) | undefined;
afterAll(async () => {
  await shared?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** An owner with a verified number and one customer, written through the app itself, before any instance runs. */
async function prepare() {
  let database: DatabaseHandle;
  let env: Record<string, string>;
  if (onPostgres) {
    shared = await createTestDatabase();
    database = shared;
    env = { DATABASE_URL: shared.url! };
  } else {
    dataDir = mkdtempSync(join(tmpdir(), 'wt-kill9-'));
    database = openDatabase({ dataDir });
    await database.migrate();
    env = { DATA_DIR: dataDir };
  }
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: 'http://app.test' });
  const clock = createManualClock(new Date());
  const app = await buildApp({ config, database, clock, logger: false });
  const t: TestApp = { app, database, clock, config, close: async () => {} };
  const owner = await businessWithNumber(t);
  const customer = await addCustomer(t, owner.id);
  await app.close();
  // PGlite's files belong to one process at a time: hand them over to the instance.
  if (!onPostgres) await database.close();
  return { env, owner, customer };
}

describe(`kill -9 under write load (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('loses no acknowledged write', { timeout: 120_000 }, async () => {
    const { env, owner, customer } = await prepare();
    const instance = await startInstance(env);
    const login = await api(instance.url, 'POST', '/auth/login', {
      body: { email: owner.email, password: owner.password },
    });
    expect(login.status).toBe(200);
    const token = login.json.token as string;

    const acknowledged: string[] = [];
    let failedAfterKill = 0;
    let killed = false;
    const writer = async (lane: number) => {
      for (let n = 0; !killed; n += 1) {
        try {
          const response = await api(instance.url, 'POST', `/waitlist/${customer.id}/messages`, {
            token,
            body: { body: `Write ${lane}.${n}` },
          });
          if (response.status === 201) acknowledged.push(response.json.data.id);
          else if (!killed)
            throw new Error(`write answered ${response.status}: ${JSON.stringify(response.json)}`);
        } catch (error) {
          if (!killed) throw error;
          failedAfterKill += 1;
        }
      }
    };
    const lanes = [0, 1, 2, 3].map(writer);
    // Kill once a good number of writes went through, at a moment that depends on the machine's speed.
    const started = Date.now();
    while (acknowledged.length < 150 && Date.now() - started < 30_000) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    killed = true; // from here on a refused connection is the kill, not a failure
    await instance.kill9();
    await Promise.all(lanes);
    expect(acknowledged.length).toBeGreaterThanOrEqual(150);

    // Open the database again (PGlite recovers its files; PostgreSQL never went away) and look for each one.
    const reopened = onPostgres ? shared! : openDatabase({ dataDir: dataDir! });
    try {
      const found = new Set<string>();
      for (let i = 0; i < acknowledged.length; i += 500) {
        const rows = await reopened.db
          .select({ id: messages.id })
          .from(messages)
          .where(inArray(messages.id, acknowledged.slice(i, i + 500)));
        for (const row of rows) found.add(row.id);
      }
      const lost = acknowledged.filter((id) => !found.has(id));
      console.info(
        `kill -9 (${onPostgres ? 'PostgreSQL' : 'PGlite'}): ${acknowledged.length} acknowledged, ${lost.length} lost, ${failedAfterKill} in flight at the kill`,
      );
      expect(lost).toEqual([]);
    } finally {
      if (!onPostgres) await reopened.close();
    }
  });
});
