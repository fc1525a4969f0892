import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { type ExtractTablesWithRelations, is, Placeholder, SQL, sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { type PgDatabase, PgDialect, type PgQueryResultHKT, type PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { migrationsFolder } from '../paths.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Repositories accept either the database or an open transaction. */
export type Executor = Database | Transaction;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;
}

/** DATA_DIR=memory:// keeps PGlite in memory: nothing is written to disk (tests, demos). */
export const IN_MEMORY = 'memory://';

export function describeDataDir(dataDir: string): string {
  return dataDir === IN_MEMORY ? 'memory (nothing is saved)' : resolve(dataDir);
}

/** Advisory lock key held while migrating (any constant unique to this app). */
const MIGRATION_LOCK = 7_317_017;

/**
 * DATABASE_POOLER (issue 40): 'transaction' when DATABASE_URL is a pooler that lends a server connection for
 * one transaction at a time (PgBouncer's `pool_mode = transaction`), so nothing may outlive a transaction
 * on a connection: no named prepared statements (preparedRows, preparedName), no session-level advisory
 * locks, SET or LISTEN (the app uses none: the migration lock is transaction-scoped).
 */
export type DatabasePooler = 'transaction';
const behindTransactionPooler = new WeakSet<object>();

/**
 * A prepared statement's name, or undefined (an unnamed statement, parsed with each call) behind a
 * transaction-mode pooler: a statement named on one server connection does not exist on the next, and
 * another client's statement of the same name may already exist there.
 */
export function preparedName(db: Database, name: string): string | undefined {
  return behindTransactionPooler.has(db) ? undefined : name;
}

/**
 * Several instances start at once against one database: an advisory lock lets one migrate at a time (the
 * others then find every migration applied). Transaction-scoped, held by the transaction that applies the
 * migrations (issue 40): a session lock taken and released in separate statements behind a transaction-mode
 * pooler would be taken on one server connection, released (or not) on another, and left held.
 */
async function migrateUnderLock(pool: pg.Pool) {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    // Drizzle's migrator runs on this client, so inside this transaction: its own BEGIN only warns, and its
    // COMMIT (or ROLLBACK, on a failed migration) ends the transaction and releases the lock.
    await migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder });
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    // Already committed by the migrator: this only warns, and closes the transaction if it did not.
    await client.query('commit').catch(() => undefined);
    client.release();
  }
}

/**
 * PostgreSQL through node-postgres when a URL is given, otherwise embedded PGlite (a WASM build of
 * PostgreSQL) in `dataDir`, or in memory when dataDir is 'memory://'. Both speak the same SQL.
 */
export function openDatabase(
  target:
    | { url: string; pooler?: DatabasePooler; connectionWaitMs?: number }
    | { dataDir: string; loadDataDir?: Blob },
): DatabaseHandle {
  if ('url' in target) {
    // A connection that cannot be had within 5 s (made, or freed by another request) fails the request (503)
    // instead of queueing it forever. The test suite waits longer (test-app.ts): its bursts share two cores.
    const pool = new pg.Pool({
      connectionString: target.url,
      max: 10,
      connectionTimeoutMillis: target.connectionWaitMs ?? 5_000,
    });
    // An idle connection dropped by a database restart must not crash the process: the pool replaces it.
    pool.on('error', (error) => {
      console.error(`database connection lost: ${error.message}`);
    });
    // A checked-out connection (inside a transaction, between two queries) that the server drops emits
    // 'error' on its client, which would otherwise crash the process; the pending work fails with a 503.
    pool.on('connect', (client) => {
      client.on('error', (error) => {
        console.error(`database connection lost: ${error.message}`);
      });
    });
    const db = drizzleNodePg(pool, { schema }) as unknown as Database;
    if (target.pooler === 'transaction') behindTransactionPooler.add(db);
    return { db, kind: 'postgres', migrate: () => migrateUnderLock(pool), close: () => pool.end() };
  }
  const inMemory = target.dataDir === IN_MEMORY;
  if (!inMemory) mkdirSync(target.dataDir, { recursive: true });
  // pg_trgm backs the admin search's indexes (issue 6); PostgreSQL ships it as a contrib extension.
  const extensions = { pg_trgm };
  // PostgreSQL's default 128 MB of shared buffers is reserved inside PGlite's WebAssembly memory, so it
  // counts in the server's resident memory even when idle; 16 MB holds a small business's working set
  // (issue 16: idle RSS 406 → ~280 MB). Applied from the second start on (the first runs initdb).
  // loadDataDir starts from a tarball of a data directory (dumpDataDir) instead of running initdb: the tests
  // copy one migrated in-memory database per file instead of migrating each (issue 40).
  const options = {
    extensions,
    postgresqlconf: ['shared_buffers = 16MB'],
    ...('loadDataDir' in target && target.loadDataDir ? { loadDataDir: target.loadDataDir } : {}),
  };
  const client = inMemory ? new PGlite(options) : new PGlite(resolve(target.dataDir), options);
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(drizzlePglite(client, { schema }), { migrationsFolder }),
    close: () => client.close(),
  };
}

/** One round trip to the database (the health check): throws when it does not answer. */
export async function pingDatabase(db: Database): Promise<void> {
  await db.execute(sql`select 1`);
}

/**
 * A query on the path of every request, run under the ORM rather than through it (issue 16): Drizzle builds
 * its SQL once, here; PostgreSQL keeps it as a named prepared statement; each call sends only the values
 * and reads the rows as arrays. Drizzle's own prepared query still clones its config, formats Date values
 * in local time and traces every call, which showed in the CPU profile of GET /auth/me. Behind a
 * transaction-mode pooler (DATABASE_POOLER) the statement is unnamed (the SQL is still built once). Values
 * are given by the names of the query's sql.placeholder()s. The query is a Drizzle query builder or a `sql` template;
 * a call runs in the executor given (an open transaction), else on the database's pool.
 */
/** A value given when a prepared statement runs (preparedRows), by name. */
export const placeholder = (name: string) => sql.placeholder(name);

/** A timestamp read outside Drizzle's mapping: a Date (node-postgres, PGlite) or its text (inside JSON). */
export const dateOrNull = (value: unknown) =>
  value === null || value === undefined ? null : value instanceof Date ? value : new Date(String(value));

export function preparedRows(
  db: Database,
  name: string,
  query: { toSQL(): { sql: string; params: unknown[] } } | SQL,
): (values: Record<string, unknown>, executor?: Executor) => Promise<unknown[][]> {
  const { sql: text, params } = is(query, SQL) ? new PgDialect().sqlToQuery(query) : query.toSQL();
  const valuesOf = (values: Record<string, unknown>) =>
    params.map((param) => (is(param, Placeholder) ? values[param.name] : param));
  // The database's client, or the one connection (pg) or transaction (PGlite) an open transaction runs on.
  const clientOf = (executor: Executor) =>
    (executor as unknown as { session: { client: pg.Pool | pg.PoolClient | PGlite } }).session.client;
  if ((db as unknown as { $client: unknown }).$client instanceof pg.Pool) {
    const statementName = preparedName(db, name);
    return async (values, executor = db) =>
      (
        await (clientOf(executor) as pg.Pool).query<unknown[]>({
          name: statementName,
          text,
          values: valuesOf(values),
          rowMode: 'array',
        })
      ).rows;
  }
  return async (values, executor = db) =>
    (await (clientOf(executor) as PGlite).query<unknown[]>(text, valuesOf(values), { rowMode: 'array' }))
      .rows;
}
