// The measurements of issue 30 against one running server: autocannon, 20 connections, each path for
// `seconds`; then openings (request → last of 30 texts at the local Plivo) and the outbox drain.
import { createHmac, randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { queueTexts } from './prepare.mjs';

export const CONNECTIONS = 20;
export const WEBHOOK_PATH = '/api/v1/webhooks/plivo/message';

/** Plivo's signature V3 of a form POST (apps/server/src/features/messaging/plivo-signature.ts). */
export function plivoSignature(authToken, url, nonce, params) {
  const base = `${url}?${Object.keys(params)
    .sort()
    .map((key) => `${key}${params[key]}`)
    .join('')}.${nonce}`;
  return createHmac('sha256', authToken).update(base).digest('base64');
}

/** A signed inbound text from `from` to `to`, as Plivo posts it. */
export function signedInbound({ publicUrl, authToken }, from, to, text) {
  const params = {
    From: from.replace(/^\+/, ''),
    To: to.replace(/^\+/, ''),
    Text: text,
    Type: 'sms',
    MessageUUID: randomUUID(),
  };
  const nonce = randomUUID().replace(/-/g, '').slice(0, 20);
  return {
    method: 'POST',
    path: WEBHOOK_PATH,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-plivo-signature-v3-nonce': nonce,
      'x-plivo-signature-v3': plivoSignature(authToken, `${publicUrl}${WEBHOOK_PATH}`, nonce, params),
    },
    body: new URLSearchParams(params).toString(),
  };
}

const pick = (list, i) => list[i % list.length];

/** Last week's Monday..Sunday (UTC dates): the weekly summary's range. */
function lastWeek(now = new Date()) {
  const day = (now.getUTCDay() + 6) % 7;
  const monday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - day - 7));
  const sunday = new Date(monday.getTime() + 6 * 86_400_000);
  return { from: monday.toISOString().slice(0, 10), to: sunday.toISOString().slice(0, 10) };
}

/** The paths loaded by autocannon: [name, (i) => request]. */
export function loadPaths(context, plivo, publicUrl) {
  const owner = { authorization: `Bearer ${context.owner.token}` };
  const admin = { authorization: `Bearer ${context.adminToken}` };
  const get = (path, headers) => ({ method: 'GET', path, headers });
  const week = lastWeek();
  const searches = ['amy', 'chen', 'maya nguyen', '6460001', 'rosa'];
  const adminQueries = [
    'search=dental&plan=growth&verified=true',
    'search=chen&verified=false',
    'search=salon&plan=starter&sort=businessName',
    'search=maya&plan=growth&sort=firstName&order=asc',
    'search=212-4&plan=free_trial',
  ];
  const signing = { publicUrl, authToken: plivo.authToken };
  return [
    ['waitlist page', () => get('/api/v1/waitlist', owner)],
    [
      'waitlist search',
      (i) => get(`/api/v1/waitlist?search=${encodeURIComponent(pick(searches, i))}`, owner),
    ],
    ['inbox list', () => get('/api/v1/inbox', owner)],
    ['inbox thread', (i) => get(`/api/v1/inbox/${pick(context.threads, i)}`, owner)],
    ['dashboard, last 90 days', () => get('/api/v1/dashboard/earnings?range=90d', owner)],
    [
      'weekly summary (one business)',
      () => get(`/api/v1/dashboard/earnings?range=custom&from=${week.from}&to=${week.to}`, owner),
    ],
    ['admin users: search + filter', (i) => get(`/api/v1/admin/users?${pick(adminQueries, i)}`, admin)],
    [
      'inbound YES',
      (i) => signedInbound(signing, pick(context.waitingPhones, i), context.owner.number, 'YES'),
    ],
    [
      'inbound free-text reply',
      (i) =>
        signedInbound(
          signing,
          pick(context.waitingPhones, i),
          context.owner.number,
          'Anything later this week?',
        ),
    ],
  ];
}

/**
 * One path under load: p50, p99 (ms), requests per second, answers that were not 2xx, and the CPU (ms) the
 * server and PostgreSQL used meanwhile (`cpu`: processes.mjs's cpuMeter).
 */
export async function load(baseUrl, makeRequest, span, cpu = () => ({ app: 0, db: new Map() })) {
  let i = 0;
  const before = cpu();
  const result = await autocannon({
    url: baseUrl,
    connections: CONNECTIONS,
    // `{ seconds }` for a timed round, `{ requests }` for a fixed number of them (the smoke test's check).
    ...(span.requests ? { amount: span.requests } : { duration: span.seconds }),
    requests: [
      {
        setupRequest: (request) => {
          const next = makeRequest(i++);
          return { ...request, ...next, headers: { ...request.headers, ...next.headers } };
        },
      },
    ],
  });
  const after = cpu();
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: result.requests.average,
    total: result.requests.total,
    bad: result.non2xx + result.errors + result.timeouts,
    appCpuMs: after.app - before.app,
    // Backends that started meanwhile count from zero; one that ended meanwhile is lost (rare: the pool
    // keeps its connections while it is busy).
    dbCpuMs: [...after.db].reduce((sum, [pid, ms]) => sum + ms - (before.db.get(pid) ?? 0), 0),
  };
}

/**
 * Waits until the outbox holds nothing due (the answers the reply paths queued), so the openings and the drain
 * are timed on an idle outbox. Returns the seconds waited.
 */
export async function outboxIdle(databaseUrl, timeoutMs = 600_000) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const started = performance.now();
  try {
    while (performance.now() - started < timeoutMs) {
      const { rows } = await db.query(
        `select count(*)::int as due from outbox where status = 'pending' and next_attempt_at <= now()`,
      );
      if (rows[0].due === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await db.end();
  }
  return (performance.now() - started) / 1000;
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function json(url) {
  const response = await fetch(url);
  return { status: response.status, body: await response.json() };
}

/**
 * Openings: each opener once, one after the other (what one owner waits for; twenty at once would time the
 * outbox's throughput, which the drain measures): from POST /openings to the 30th text of that business at
 * the local Plivo.
 */
export async function openings(baseUrl, controlUrl, context, texts, concurrency = 1) {
  const openers = context.openers;
  const latencies = [];
  let bad = 0;
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < openers.length) {
      const opener = openers[next++];
      const digits = opener.number.replace(/^\+/, '');
      const { body: before } = await json(`${controlUrl}/count?src=${digits}`);
      const at = performance.timeOrigin + performance.now();
      const response = await fetch(`${baseUrl}/api/v1/openings`, {
        method: 'POST',
        headers: { authorization: `Bearer ${opener.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          startsAt: new Date(Date.now() + 3 * 3_600_000).toISOString(),
          durationMinutes: 45,
          service: 'Haircut',
          priceCents: 6500,
          mode: 'all',
        }),
      });
      await response.arrayBuffer();
      if (response.status !== 201) {
        bad += 1;
        continue;
      }
      const waited = await json(
        `${controlUrl}/wait?src=${digits}&count=${before.src + texts}&timeoutMs=30000`,
      );
      if (waited.status !== 200) bad += 1;
      else latencies.push(waited.body.at - at);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, openers.length) }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    p50: percentile(latencies, 50) ?? Number.NaN,
    p99: percentile(latencies, 99) ?? Number.NaN,
    rps: latencies.length / seconds,
    total: openers.length,
    bad,
    latencies,
    seconds,
  };
}

/**
 * The outbox drain: `count` texts of the businesses `senders` queued at once; texts per second from the first
 * to the last at Plivo.
 */
export async function drain(databaseUrl, controlUrl, count, senders) {
  const { body: before } = await json(`${controlUrl}/count`);
  const queued = performance.timeOrigin + performance.now();
  await queueTexts(databaseUrl, count, senders);
  const deadline = performance.now() + 600_000;
  let first = null;
  let now = before;
  while (now.total < before.total + count && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    now = (await json(`${controlUrl}/count`)).body;
    if (first === null && now.total > before.total) first = now.lastAt;
  }
  const handed = now.total - before.total;
  const seconds = (now.lastAt - (first ?? queued)) / 1000;
  return {
    textsPerSecond: handed / Math.max(seconds, 0.001),
    fromQueuedSeconds: (now.lastAt - queued) / 1000,
    handed,
    bad: count - handed,
  };
}
