import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../db/client.ts';
import { outbox } from '../db/schema.ts';
import { startFakePlivo } from '../test/fake-plivo.ts';
import { startFakeSmtp } from '../test/fake-smtp.ts';
import { FAKE_PRICES, FAKE_SECRET_KEY, startFakeStripe } from '../test/fake-stripe.ts';
import { api, startInstance } from '../test/instance.ts';
import {
  login,
  newDatabase,
  openAlert,
  p50,
  plivoEnv,
  prepareOwner,
  results,
  say,
  settled,
  timed,
} from './harness.ts';
import { tally, tallyEmails } from './tally.ts';

/** Providers down: Plivo and SMTP answering 5xx or hanging, and Stripe failing or hanging behind a proxy. */

export async function providerOutage(kind: '5xx' | 'hang') {
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
  const mails = tallyEmails(emails, smtp.received);
  const [retried] = await database.db
    .select({ rows: sql<number>`count(*)::int`, max: sql<number>`coalesce(max(${outbox.attempts}), 0)::int` })
    .from(outbox)
    .where(sql`${outbox.attempts} > 1`);
  results.push({
    fault,
    sent: `texts ${texts.delivered}/20, emails ${mails.sent}/5`,
    lost: texts.lost + mails.lost,
    duplicated: texts.duplicated + mails.duplicated,
    expectedDuplicates: mails.sameMessageId,
    notes: `GET /auth/me p50 ${before.toFixed(1)} ms before, ${during.toFixed(1)} ms during; sign-up p50 ${p50(registerTimes).toFixed(0)} ms during; ${mails.deliveries} SMTP deliveries of ${mails.sent} distinct emails (Message-IDs); ${retried!.rows} rows retried (up to ${retried!.max} attempts); all delivered ${drainSeconds} s after recovery${done ? '' : ' (outbox NOT settled)'}`,
  });
  await Promise.all([a.stop(), b.stop()]);
  await database.close();
  await plivo.close();
  await smtp.close();
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

export async function stripeOutage() {
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
