// The scale data set of issue 30, seeded with set-based SQL (INSERT … SELECT generate_series), not the API.
// Every business draws a weight from a Pareto law (alpha 1.2, capped at 500: a few large shops, many small
// ones) and gets customers, openings, texts and replies in proportion to it. The law does not depend on
// SCALE, so a 1% copy has the same kinds of shops, only fewer of them; business 1 (the measured owner) has a
// fixed weight at every size. Rows go in in time order (over two years), so one business's rows lie scattered
// over the table as in production, never side by side. Ids are version-4 shaped md5s of (kind, business, number): any later
// statement finds a row's id without a join.
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';

export const FULL = {
  businesses: 100_000,
  customers: 3_000_000,
  openings: 1_000_000,
  texts: 10_000_000,
  replies: 500_000,
};
const ALPHA = 1.2;
const CAP = 500;
/** E[min(X, CAP)] for a Pareto(ALPHA, 1) X: the mean weight, so totals match FULL × SCALE. */
const MEAN_WEIGHT = 1 + (1 - CAP ** (1 - ALPHA)) / (ALPHA - 1);
/** The measured owner's weight: ~260 customers, ~880 texts, ~45 replies, ~90 openings (the top 1.2% of shops) at any SCALE. */
export const OWNER_WEIGHT = 40;
const OFFERS_PER_OPENING = 4;
const DAYS = 730;

/** The loaded tables: their indexes and constraints are dropped before the load and built after it. */
const LOADED = [
  'users',
  'sessions',
  'customers',
  'openings',
  'offers',
  'messages',
  'inbound_events',
  'sms_opt_outs',
];

const perWeight = (total) => total / (FULL.businesses * MEAN_WEIGHT);

/** The database beside `adminUrl` named `name`, with any migration not yet applied (SCALE_REUSE=1). */
export async function migrateDatabase(adminUrl, name, migrationsFolder) {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  try {
    await migrate(drizzle(pool), { migrationsFolder });
    await pool.query('analyze');
  } finally {
    await pool.end();
  }
  return url.toString();
}

/** Drops the database if present, creates it, and runs the server's migrations (drizzle's migrator). */
export async function createDatabase(adminUrl, name, migrationsFolder) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  try {
    await migrate(drizzle(pool), { migrationsFolder });
  } finally {
    await pool.end();
  }
  return url.toString();
}

const FIRST = `array['Amy','Bob','Cara','Dan','Eve','Finn','Gia','Hugo','Iris','Jack','Kira','Liam','Maya','Noah','Olga','Pete','Quinn','Rosa','Sam','Tara']`;
const LAST = `array['Adams','Brown','Chen','Diaz','Evans','Ford','Garcia','Hill','Ito','Jones','Khan','Lopez','Moore','Nguyen','Olsen','Patel']`;
const TRADE = `array['Salon','Barbers','Dental','Clinic','Nails','Spa','Plumbing','Physio','Tattoo','Vets']`;
const OUT_BODIES = `array[
  'Hi from {b}: a 45 min Haircut opened today at 3:30 PM ($65). Reply YES to claim it. Reply STOP to opt out.',
  'You are on the waitlist at {b}. We will text you when a slot opens. Reply STOP to opt out.',
  'It is yours! See you at 3:30 PM at {b}.',
  'Thanks! That slot at {b} has just been filled. We will text you about the next one.']`;
const IN_BODIES = `array['YES','Is there anything later this week?','ok thanks','Can I bring my son too?','Yes please','What time tomorrow?','YES']`;

/** The seeding statements, in order: [table, sql]. */
const statements = (scale) => [...businessStatements(scale), ...activityStatements()];

/** The businesses: their weights (bench_seed.biz), accounts and sessions. */
function businessStatements(scale) {
  const b = Math.max(10, Math.round(FULL.businesses * scale));
  const c = perWeight(FULL.customers);
  const o = perWeight(FULL.openings);
  const t = perWeight(FULL.texts);
  const r = perWeight(FULL.replies);
  // A business's creation time: evenly over the two years, business 1 the oldest.
  return [
    [
      'bench_seed.biz',
      `create schema bench_seed;
       create function bench_seed.uid(text) returns uuid language sql immutable
         as $$ select overlay(overlay(md5($1) placing '4' from 13) placing '8' from 17)::uuid $$;
       select setseed(0.3);
       create table bench_seed.biz as
       select n, bench_seed.uid('u' || n) as id, w,
         greatest(5, round(w * ${c}))::int as customers, round(w * ${o})::int as openings,
         round(w * ${t})::int as texts, round(w * ${r})::int as replies,
         now() - interval '${DAYS} days' + (n - 1) * interval '${(DAYS * 86400) / b} seconds' as created_at
       from (select n, case when n = 1 then ${OWNER_WEIGHT}
         else least(${CAP}, power(1 - random(), -1 / ${ALPHA})) end as w
         from generate_series(1, ${b}) n) s;
       alter table bench_seed.biz add primary key (n);`,
    ],
    [
      'users',
      `insert into users (id, first_name, last_name, email, password_hash, verified, business_name, business_phone,
         business_address, city, state, zip, business_verification_status, subscription_plan, subscription_period,
         subscription_status, trial_end_date, current_period_end, plivo_number, plivo_number_status, time_zone,
         weekly_summary_enabled, created_at, updated_at)
       select id, f, l, lower(f || '.' || l || '.' || n || '@example.com'), 'x', n % 9 <> 0,
         l || ' ' || (${TRADE})[1 + n % 10] || ' ' || n,
         '(' || (200 + n % 700) || ') ' || (200 + (n * 37) % 700) || '-' || lpad(((n * 7919) % 10000)::text, 4, '0'),
         n || ' Main St', 'Springfield',
         'IL', '62701', 'approved', plan, 'monthly', case when plan = 'free_trial' then 'trialing' else 'active' end,
         created_at + interval '14 days', now() + interval '20 days', '+1' || (2000000000 + n), 'verified',
         (array['America/New_York','America/Chicago','America/Denver','America/Los_Angeles'])[1 + n % 4],
         n % 7 <> 0, created_at, created_at
       from (select *, (${FIRST})[1 + n % 20] as f, (${LAST})[1 + (n / 20) % 16] as l,
         -- A trial lasts 14 days: only the businesses created since are still on it (older ones chose a plan;
         -- seeding them as trials would hand the billing worker 30,000 expiries on its first pass).
         case when w >= 10 or n % 3 = 0 then 'growth'
           when n % 3 = 1 or created_at < now() - interval '14 days' then 'starter' else 'free_trial' end as plan
         from bench_seed.biz) s
       order by n`,
    ],
    [
      'sessions',
      `insert into sessions (user_id, token_hash, created_at, expires_at)
       select id, encode(sha256(('session ' || n)::bytea), 'hex'), now(), now() + interval '30 days'
       from bench_seed.biz`,
    ],
  ];
}

/** What the businesses did over the two years: customers, openings and offers, texts and replies. */
function activityStatements() {
  return [
    [
      'customers',
      `insert into customers (id, user_id, name, phone, status, position, consent_method, consented_at, opted_out,
         opted_out_at, preferences, first_text_sent, language, created_at, updated_at)
       select bench_seed.uid('c' || n || ':' || j), bench_seed.uid('u' || n),
         (${FIRST})[1 + j % 20] || ' ' || (${LAST})[1 + (j * 7 + n) % 16], '+1646' || lpad(j::text, 7, '0'),
         case when j = 1 then 'waiting' when h < 0.72 then 'waiting' when h < 0.86 then 'booked' else 'removed' end,
         j, 'imported', ts, h2 < 0.02 and j > 60, case when h2 < 0.02 and j > 60 then ts + interval '30 days' end,
         '[]'::jsonb, true, case when h2 > 0.9 then 'es' else 'en' end, ts, ts
       from (select b.n, j, b.created_at + random() * (now() - b.created_at) as ts, random() as h, random() as h2
         from bench_seed.biz b, generate_series(1, b.customers) j order by ts offset 0) s`,
    ],
    [
      'bench_seed.opening_src',
      `create table bench_seed.opening_src as
       select n, k, nc, ts, ts + (1 + floor(random() * 47)) * interval '1 hour' as starts, random() as h
       from (select b.n, k, b.customers as nc, b.created_at + random() * (now() - b.created_at) as ts
         from bench_seed.biz b, generate_series(1, b.openings) k order by ts offset 0) s`,
    ],
    [
      'openings',
      `insert into openings (id, user_id, starts_at, duration_minutes, service, price_cents, status, mode,
         winner_customer_id, filled_at, created_at, local_date)
       select bench_seed.uid('o' || n || ':' || k), bench_seed.uid('u' || n), starts, 45, 'Haircut', 4500 + (k % 5) * 1000,
         st, 'all', case when st = 'filled' then bench_seed.uid('c' || n || ':' || ((k * 7) % nc + 1)) end,
         case when st = 'filled' then ts + h * interval '60 minutes' end, ts,
         to_char(ts at time zone 'America/New_York', 'YYYY-MM-DD')
       from (select *, case when starts > now() then 'open' when h < 0.6 then 'filled' when h < 0.95 then 'expired'
         else 'closed' end as st from bench_seed.opening_src) s`,
    ],
    [
      'offers',
      `insert into offers (opening_id, customer_id, wave, sent_at, status, rank, reason, claimed_at)
       select bench_seed.uid('o' || n || ':' || k), bench_seed.uid('c' || n || ':' || ((k * 7 + i) % nc + 1)), 1,
         ts + i * interval '1 second',
         case when starts > now() then 'sent' when h >= 0.6 then 'sent' when i = 0 then 'won' else 'lost' end,
         i + 1, '', case when h < 0.6 and i = 0 and starts <= now() then ts + h * interval '60 minutes' end
       from bench_seed.opening_src, generate_series(0, least(${OFFERS_PER_OPENING}, nc) - 1) i`,
    ],
    [
      'messages',
      `insert into messages (user_id, customer_id, opening_id, direction, from_number, to_number, body, segments,
         encoding, provider_message_id, status, created_at, sent_at, delivered_at, read_at)
       select bench_seed.uid('u' || n), bench_seed.uid('c' || n || ':' || j),
         case when not inbound and k % 3 = 0 and op > 0 then bench_seed.uid('o' || n || ':' || (k % op + 1)) end,
         case when inbound then 'in' else 'out' end,
         case when inbound then '+1646' || lpad(j::text, 7, '0') else '+1' || (2000000000 + n) end,
         case when inbound then '+1' || (2000000000 + n) else '+1646' || lpad(j::text, 7, '0') end,
         case when inbound then (${IN_BODIES})[1 + k % 7]
           else replace((${OUT_BODIES})[1 + k % 4], '{b}', 'Business ' || n) end,
         1, 'GSM-7', md5('m' || n || ':' || k || ':' || inbound), case when inbound then 'received' else 'delivered' end,
         ts, case when not inbound then ts end, case when not inbound then ts + interval '3 seconds' end,
         case when inbound and k % 33 <> 0 then ts + interval '1 hour' end
       from (select b.n, k, false as inbound, (k * 13) % b.customers + 1 as j, b.openings as op,
           b.created_at + random() * (now() - b.created_at) as ts
         from bench_seed.biz b, generate_series(1, b.texts) k
         union all
         select b.n, k, true, (k * 7) % b.customers + 1, b.openings, b.created_at + random() * (now() - b.created_at)
         from bench_seed.biz b, generate_series(1, b.replies) k
         order by ts offset 0) s`,
    ],
    [
      'sms_opt_outs',
      `insert into sms_opt_outs (user_id, phone, opted_out_at)
       select user_id, phone, opted_out_at from customers where opted_out`,
    ],
    [
      'inbound_events',
      `insert into inbound_events (id, received_at)
       select provider_message_id, created_at from messages where direction = 'in'`,
    ],
  ];
}

/** Definitions of the loaded tables' indexes and constraints, to drop them and build them again after. */
async function schemaObjects(client) {
  const names = LOADED.map((t) => `'${t}'`).join(',');
  const { rows: constraints } = await client.query(
    `select c.conname, c.contype, c.conrelid::regclass::text as tbl, pg_get_constraintdef(c.oid) as def
     from pg_constraint c
     where c.contype in ('p', 'u', 'f') and (c.conrelid::regclass::text in (${names})
       or (c.contype = 'f' and c.confrelid::regclass::text in (${names})))`,
  );
  const { rows: indexes } = await client.query(
    `select indexname, tablename, indexdef from pg_indexes
     where schemaname = 'public' and tablename in (${names})
       and indexname not in (select conname from pg_constraint where contype in ('p', 'u'))`,
  );
  return { constraints, indexes };
}

/** Seeds one database; returns seconds per step. `onStep(name, seconds, rows)` reports as it goes. */
export async function seed(databaseUrl, scale, onStep = () => {}) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const seconds = {};
  const step = async (name, run) => {
    const started = performance.now();
    const result = await run();
    seconds[name] = (performance.now() - started) / 1000;
    onStep(name, seconds[name], result?.rowCount ?? null);
  };
  try {
    await client.query(`set synchronous_commit = off; set work_mem = '1GB'; set maintenance_work_mem = '1GB';
      set max_parallel_maintenance_workers = 2`);
    const { constraints, indexes } = await schemaObjects(client);
    await step('drop indexes', async () => {
      for (const c of constraints.filter((c) => c.contype === 'f'))
        await client.query(`alter table ${c.tbl} drop constraint ${c.conname}`);
      for (const i of indexes) await client.query(`drop index ${i.indexname}`);
      for (const c of constraints.filter((c) => c.contype !== 'f'))
        await client.query(`alter table ${c.tbl} drop constraint ${c.conname}`);
    });
    for (const [table, text] of statements(scale)) {
      await step(table, async () => {
        const results = await client.query(text);
        return Array.isArray(results) ? results.at(-1) : results;
      });
    }
    await step('primary keys and unique constraints', async () => {
      for (const c of constraints.filter((c) => c.contype !== 'f'))
        await client.query(`alter table ${c.tbl} add constraint ${c.conname} ${c.def}`);
    });
    await step('indexes', async () => {
      for (const i of indexes) await client.query(i.indexdef);
    });
    // The rows were written to fit every key (ids are made from the same numbers), so the foreign keys are
    // added without re-reading 10 million rows; from here on they hold for every new row, as in production.
    await step('foreign keys', async () => {
      for (const c of constraints.filter((c) => c.contype === 'f'))
        await client.query(`alter table ${c.tbl} add constraint ${c.conname} ${c.def} not valid`);
    });
    // What autovacuum does after a bulk load: statistics for the planner and the visibility map (index-only scans).
    await step('vacuum analyze', () => client.query('vacuum (analyze)'));
    return { seconds, ...(await describe(databaseUrl)) };
  } finally {
    await client.end();
  }
}

/** What a seeded database holds: rows per table and its size. */
export async function describe(databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      `select (select count(*) from users)::int as businesses, (select count(*) from customers)::int as customers,
         (select count(*) from openings)::int as openings, (select count(*) from offers)::int as offers,
         (select count(*) from messages where direction = 'out')::int as texts,
         (select count(*) from messages where direction = 'in')::int as replies,
         pg_database_size(current_database())::bigint as bytes`,
    );
    const { rows: tables } = await client.query(
      `select relname as name, pg_total_relation_size(oid)::bigint as bytes from pg_class
       where relkind = 'r' and relnamespace = 'public'::regnamespace order by 2 desc limit 6`,
    );
    return { counts: rows[0], tables };
  } finally {
    await client.end();
  }
}
