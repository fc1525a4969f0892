// GET /auth/me, builds side by side (issue 40): one or more builds of the server (each a dist directory
// one level below apps/server, e.g. apps/server/dist) and the bare baselines (scripts/bench/bare-server.mjs:
// `row` and `same-job`), all started at once on one fresh PostgreSQL database and loaded in turn, in short
// rounds whose order rotates, so the machine's drift falls on every side alike. Prints req/s and server CPU
// per request (from /proc) for each, and each build's ratio to each baseline.
// Usage: node scripts/bench/auth-me-ab.mjs [--rounds 6] [--seconds 3] [--profile] [--bouncer <port>] <build>...
//   a build is a dist directory, optionally followed by `,pooler` (DATABASE_POOLER=transaction: unnamed
//   statements) and `,bouncer` (DATABASE_URL through the PgBouncer listening on --bouncer's port, e.g. one
//   started with pool_mode = transaction), e.g. apps/server/dist apps/server/dist,pooler,bouncer.
//   --profile writes CPU profiles of each build's server (node --cpu-prof) into ./auth-me-profile-<n>/.
//   BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test); ports from BENCH_PORT (3450).
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { startProcess, stopProcess, waitForAnswer } from '../processes.mjs';

const { values: options, positionals: builds } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '6' },
    seconds: { type: 'string', default: '3' },
    profile: { type: 'boolean', default: false },
    bouncer: { type: 'string' },
  },
});
if (builds.length === 0) builds.push('apps/server/dist');
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const basePort = Number(process.env.BENCH_PORT ?? 3450);

const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

const dbName = `bench_me_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`create database ${dbName}`);
const url = new URL(adminUrl);
url.pathname = `/${dbName}`;
const databaseUrl = url.toString();
const started = [];
try {
  const sides = [];
  for (const [i, build] of builds.entries()) {
    const [dist, ...flags] = build.split(',');
    const port = basePort + i;
    const viaBouncer = new URL(databaseUrl);
    viaBouncer.port = options.bouncer ?? '';
    const args = [
      ...(options.profile ? ['--cpu-prof', `--cpu-prof-dir=${resolve(`auth-me-profile-${i}`)}`] : []),
      join(resolve(dist), 'main.js'),
    ];
    const env = {
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: flags.includes('bouncer') ? viaBouncer.toString() : databaseUrl,
      ...(flags.includes('pooler') ? { DATABASE_POOLER: 'transaction' } : {}),
    };
    const child = startProcess(process.execPath, args, env);
    started.push(child);
    // One at a time: the first migrates the database.
    await waitForAnswer(`http://127.0.0.1:${port}/api/v1/health`, 120_000);
    sides.push({
      name: build,
      kind: 'build',
      child,
      url: `http://127.0.0.1:${port}/api/v1/auth/me`,
      rounds: [],
    });
  }
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const token = randomBytes(32).toString('base64url');
  const {
    rows: [user],
  } = await db.query(
    `insert into users (first_name, last_name, email, password_hash, verified, business_name, business_phone,
       business_address, city, state, zip, business_verification_status, trial_end_date)
     values ('Bench', 'Owner', 'bench@example.com', 'x', true, 'Bench Salon', '(555) 010-1234', '1 Main St',
       'Springfield', 'IL', '62701', 'submitted', now() + interval '14 days') returning id`,
  );
  await db.query(
    `insert into sessions (user_id, token_hash, expires_at) values ($1, $2, now() + interval '1 day')`,
    [user.id, createHash('sha256').update(token).digest('hex')],
  );
  await db.end();
  for (const [i, mode] of ['row', 'same-job'].entries()) {
    const port = basePort + builds.length + i;
    const child = startProcess(process.execPath, [
      ...(options.profile ? ['--cpu-prof', `--cpu-prof-dir=${resolve(`auth-me-profile-${mode}`)}`] : []),
      'scripts/bench/bare-server.mjs',
      String(port),
      databaseUrl,
      user.id,
      mode,
    ]);
    started.push(child);
    await waitForAnswer(`http://127.0.0.1:${port}/me`);
    sides.push({ name: `bare ${mode}`, kind: mode, child, url: `http://127.0.0.1:${port}/me`, rounds: [] });
  }
  const headers = { authorization: `Bearer ${token}` };
  const answers = await Promise.all(sides.map(async (side) => (await fetch(side.url, { headers })).text()));
  const sameJob = answers[sides.findIndex((side) => side.kind === 'same-job')];
  for (const [i, side] of sides.entries()) {
    if (side.kind === 'build' && answers[i] !== sameJob)
      throw new Error(`${side.name} answers differently:\n${answers[i]}\n${sameJob}`);
  }
  const load = async (side, seconds) => {
    const before = cpuMs(side.child.pid);
    const result = await autocannon({ url: side.url, connections: 50, duration: seconds, headers });
    return {
      requests: result.requests.total,
      seconds,
      errors: result.errors + result.timeouts + result.non2xx,
      cpuMs: cpuMs(side.child.pid) - before,
    };
  };
  for (const side of sides) await load(side, 2); // warm-up
  const rounds = Number(options.rounds);
  for (let round = 0; round < rounds; round += 1) {
    // Rotate the order each round.
    for (let k = 0; k < sides.length; k += 1) {
      const side = sides[(round + k) % sides.length];
      side.rounds.push(await load(side, Number(options.seconds)));
    }
  }
  const load1 = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`GET /auth/me, ${rounds} rounds × ${options.seconds} s each side, load average ${load1}`);
  const summary = sides.map((side) => {
    const requests = side.rounds.reduce((sum, r) => sum + r.requests, 0);
    const seconds = side.rounds.reduce((sum, r) => sum + r.seconds, 0);
    const rps = requests / seconds;
    const perRound = side.rounds.map((r) => (r.requests / r.seconds).toFixed(0)).join(' ');
    const cpuUs = (side.rounds.reduce((sum, r) => sum + r.cpuMs, 0) * 1000) / requests;
    const errors = side.rounds.reduce((sum, r) => sum + r.errors, 0);
    return { ...side, rps, cpuUs, errors, perRound };
  });
  const baseline = (kind) => summary.find((side) => side.kind === kind);
  for (const side of summary) {
    const ratios =
      side.kind === 'build'
        ? `  ${(side.rps / baseline('same-job').rps).toFixed(2)}× same-job, ${(side.rps / baseline('row').rps).toFixed(2)}× row`
        : '';
    console.log(
      `${side.name.padEnd(28)} ${side.rps.toFixed(0).padStart(6)} req/s  ${side.cpuUs.toFixed(0).padStart(4)} µs CPU/req  ${side.errors} errors${ratios}  [rounds: ${side.perRound}]`,
    );
  }
} finally {
  for (const child of started) await stopProcess(child);
  await admin.query(`drop database if exists ${dbName} with (force)`).catch(() => {});
  await admin.end();
}
