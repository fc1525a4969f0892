// What the measurements need in a seeded database (issue 30): the measured owner (business 1) and an admin
// signed in, the businesses whose openings are timed (30 fitting customers each), all in a time zone where it
// is mid-day now, so quiet hours never hold a text back whenever the bench runs.
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { daytimeZone } from '../../../apps/server/src/test/daytime-zone.mjs';

/** How many businesses have an opening timed; each is used once (a customer gets 3 offers a day at most). */
export const OPENERS = 40;
export const FITTING = 30;

async function signIn(db, userId) {
  const token = randomBytes(32).toString('base64url');
  await db.query(
    `insert into sessions (user_id, token_hash, expires_at) values ($1, $2, now() + interval '1 day')`,
    [userId, createHash('sha256').update(token).digest('hex')],
  );
  return token;
}

export async function prepare(databaseUrl) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const zone = daytimeZone();
    const growth = `subscription_plan = 'growth', subscription_status = 'active', verified = true,
      current_period_end = now() + interval '20 days', time_zone = '${zone}'`;
    const {
      rows: [owner],
    } = await db.query(
      `update users set ${growth} where id = bench_seed.uid('u1') returning id, plivo_number, email`,
    );
    const ownerToken = await signIn(db, owner.id);
    const {
      rows: [admin],
    } = await db.query(
      `insert into users (first_name, last_name, email, password_hash, verified, admin, business_name)
       values ('Scale', 'Admin', 'scale-admin@example.com', 'x', true, true, 'Admin')
       on conflict (email) do update set admin = true returning id`,
    );
    const adminToken = await signIn(db, admin.id);
    // The owner's customers who replied (their threads), and some who are waiting (their replies).
    const { rows: threads } = await db.query(
      `select distinct customer_id as id from messages
       where user_id = $1 and direction = 'in' and customer_id is not null limit 50`,
      [owner.id],
    );
    const { rows: waiting } = await db.query(
      `select phone from customers where user_id = $1 and status = 'waiting' and not opted_out order by position limit 200`,
      [owner.id],
    );
    // Openers: businesses (not the owner) with at least 30 fitting customers; beyond the first 30, the
    // waiting ones are marked booked, so each opening texts exactly 30.
    const { rows: openers } = await db.query(
      `select u.id, u.plivo_number from users u
       where u.id <> $1 and not u.admin and (select count(*) from customers c
         where c.user_id = u.id and c.status = 'waiting' and not c.opted_out) >= ${FITTING}
       order by u.created_at limit ${OPENERS}`,
      [owner.id],
    );
    for (const opener of openers) {
      await db.query(`update users set ${growth} where id = $1`, [opener.id]);
      await db.query(
        `update customers set status = 'booked' where id in (select id from customers
           where user_id = $1 and status = 'waiting' and not opted_out order by position offset ${FITTING})`,
        [opener.id],
      );
      opener.token = await signIn(db, opener.id);
    }
    await db.query('analyze users, sessions, customers');
    return {
      zone,
      owner: { id: owner.id, number: owner.plivo_number, token: ownerToken },
      adminToken,
      threads: threads.map((row) => row.id),
      waitingPhones: waiting.map((row) => row.phone),
      openers: openers.map((row) => ({ id: row.id, number: row.plivo_number, token: row.token })),
    };
  } finally {
    await db.end();
  }
}

/**
 * Queues `count` texts spread over the businesses `senders` (ids; as the openings would: a messages row and
 * its outbox row), in one transaction; answers when it committed.
 */
export async function queueTexts(databaseUrl, count, senders) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('begin');
    await db.query(
      `with senders as (
         select u.id, u.plivo_number, row_number() over (order by u.id) - 1 as i, count(*) over () as n
         from users u where u.id = any($2::uuid[])
       ), texts as (
         select s.id as user_id, s.plivo_number, c.id as customer_id, c.phone, g
         from generate_series(0, $1 - 1) g
         join senders s on s.i = g % s.n
         join lateral (select id, phone from customers c where c.user_id = s.id and c.status <> 'removed'
           and not c.opted_out order by position offset (g / s.n) % 5 limit 1) c on true
       ), inserted as (
         insert into messages (user_id, customer_id, direction, from_number, to_number, body, segments, encoding,
           status, created_at)
         select user_id, customer_id, 'out', plivo_number, phone, 'Bench: a text from the outbox drain', 1, 'GSM-7',
           'queued', now()
         from texts order by g
         returning id, seq
       )
       insert into outbox (kind, payload, next_attempt_at, created_at)
       select 'sms', jsonb_build_object('messageId', id), now(), clock_timestamp() from inserted order by seq`,
      [count, senders],
    );
    await db.query('commit');
  } finally {
    await db.end();
  }
}
