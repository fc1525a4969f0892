import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase } from '../db/client.ts';

/**
 * Once per API test run (vitest.config.ts globalSetup), issue 40: the 30 migrations run once, not once per
 * test file. PGlite: a migrated in-memory database dumped to a tarball that each file loads
 * (createTestDatabase, `loadDataDir`). PostgreSQL: a migrated template database that each file copies
 * (`CREATE DATABASE … TEMPLATE`), dropped at the end. Both are made through openDatabase and its migrate(),
 * the code production runs. Test files find them through the environment variables below, which the
 * worker processes inherit.
 */
export const PGLITE_TARBALL_ENV = 'WT_TEST_PGLITE_TARBALL';
export const TEMPLATE_DATABASE_ENV = 'WT_TEST_TEMPLATE_DATABASE';

export default async function setup() {
  // With projects (vitest.config.ts) vitest calls this once for the root and once for each project, in one
  // process: the first call makes the run's copy, the others find it.
  if (process.env[PGLITE_TARBALL_ENV] || process.env[TEMPLATE_DATABASE_ENV]) return;
  // Spawned servers (src/test/instance.ts) run the built dist, as production does; scripts/test.mjs builds it
  // before the suites start, so this only builds when vitest is run by hand after a change.
  // @ts-expect-error a plain-JavaScript script without types
  const { buildServer } = await import('../../../../scripts/build-server.mjs');
  await buildServer();

  if (process.env.TEST_DB !== 'postgres') {
    const started = Date.now();
    const handle = openDatabase({ dataDir: 'memory://' });
    await handle.migrate();
    const client = (handle.db as unknown as { $client: PGlite }).$client;
    const tarball = await client.dumpDataDir('none');
    await handle.close();
    const dir = join(tmpdir(), `wt-test-pglite-${process.pid}-${randomBytes(4).toString('hex')}`);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'migrated.tar');
    writeFileSync(file, Buffer.from(await tarball.arrayBuffer()));
    process.env[PGLITE_TARBALL_ENV] = file;
    console.info(`migrated PGlite once in ${Date.now() - started} ms: ${file}`);
    return () => rmSync(dir, { recursive: true, force: true });
  }

  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const started = Date.now();
  const name = `wt_template_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = openDatabase({ url: url.toString() });
  await handle.migrate();
  await handle.close();
  // A template may not have sessions while it is copied; pool.end() resolves before its sockets close.
  await waitForNoSessions(admin, name);
  process.env[TEMPLATE_DATABASE_ENV] = name;
  console.info(`migrated the PostgreSQL template ${name} once in ${Date.now() - started} ms`);
  return async () => {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  };
}

export async function waitForNoSessions(client: pg.Client, database: string) {
  for (let attempt = 0; attempt < 250; attempt += 1) {
    const { rows } = await client.query<{ open: number }>(
      'select count(*)::int as open from pg_stat_activity where datname = $1',
      [database],
    );
    if (rows[0]?.open === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`connections to ${database} stayed open`);
}
