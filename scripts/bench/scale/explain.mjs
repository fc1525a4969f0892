// EXPLAIN (ANALYZE, BUFFERS) of the statements each measured path ran (captured by capture.mjs from the
// server itself), each inside a transaction that is rolled back, so writes leave nothing behind.
import { readFileSync, statSync } from 'node:fs';
import pg from 'pg';

/** Tables whose rows grow with the number of businesses: a sequential scan of one is a finding. */
export const GROWING = [
  'users',
  'sessions',
  'customers',
  'openings',
  'offers',
  'messages',
  'inbound_events',
  'outbox',
  'scheduled_runs',
  'used_nonces',
  'sms_opt_outs',
  'join_requests',
  'message_templates',
  'offer_settings',
  'services',
  'staff_members',
  'push_subscriptions',
];

/** Reads the statements appended to `file` since byte `offset`. */
export function capturedSince(file, offset) {
  let text = '';
  try {
    text = readFileSync(file).subarray(offset).toString('utf8');
  } catch {}
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

export const captureOffset = (file) => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};

const EXPLAINABLE = /^\s*(select|insert|update|delete|with)\b/i;

/** Explains a path's statements (deduplicated by text); `[{ text, plan, buffers, seqScans, ms, error }]`. */
export async function explainStatements(databaseUrl, statements) {
  const seen = new Set();
  const unique = statements.filter((s) => {
    const key = s.text.replace(/\s+/g, ' ').trim();
    if (!EXPLAINABLE.test(key) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const results = [];
  try {
    // A scan of a table this small is the planner's right choice (opt-outs, templates, services are empty
    // in the seed): only tables holding 1,000 rows or more here count as findings.
    const { rows: sizes } = await db.query(
      `select relname, reltuples from pg_class where relkind = 'r' and relname = any($1)`,
      [GROWING],
    );
    const large = new Set(sizes.filter((row) => row.reltuples >= 1000).map((row) => row.relname));
    for (const statement of unique) {
      const text = statement.text.replace(/\s+/g, ' ').trim();
      try {
        await db.query('begin');
        const { rows } = await db.query({
          text: `explain (analyze, buffers, timing off, costs off) ${statement.text}`,
          values: statement.values,
        });
        const plan = rows.map((row) => row['QUERY PLAN']);
        const buffersLine = plan.find((line) => /Buffers:/.test(line)) ?? '';
        const count = (kind) => Number(new RegExp(`${kind}=(\\d+)`).exec(buffersLine)?.[1] ?? 0);
        const seqScans = [
          ...new Set(
            plan.flatMap((line) => {
              const table = /Seq Scan on (\w+)/.exec(line)?.[1];
              return table && large.has(table) ? [table] : [];
            }),
          ),
        ];
        const ms = Number(/Execution Time: ([\d.]+)/.exec(plan.join('\n'))?.[1] ?? Number.NaN);
        results.push({
          text,
          plan,
          buffers: count('hit') + count('read'),
          read: count('read'),
          seqScans,
          ms,
        });
      } catch (error) {
        results.push({
          text,
          plan: [],
          buffers: 0,
          read: 0,
          seqScans: [],
          ms: Number.NaN,
          error: error.message,
        });
      } finally {
        await db.query('rollback').catch(() => {});
      }
    }
  } finally {
    await db.end();
  }
  return results;
}
