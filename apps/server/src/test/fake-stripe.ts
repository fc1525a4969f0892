import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type Answer,
  error,
  type FakeAccount,
  type FakeCard,
  type FakeInvoice,
  type FakePrice,
  type FakeSchedule,
  type FakeSubscription,
  id,
  type Json,
} from './fake-stripe/account.ts';
import { cardRoutes, customerRoutes, priceRoutes } from './fake-stripe/customers.ts';
import { parseForm } from './fake-stripe/form.ts';
import { subscriptionObject } from './fake-stripe/objects.ts';
import type { FakeRoutes } from './fake-stripe/request.ts';
import { scheduleRoutes } from './fake-stripe/schedules.ts';
import { invoiceAndSessionRoutes } from './fake-stripe/sessions.ts';
import { subscriptionRoutes } from './fake-stripe/subscriptions.ts';

export { DECLINED_MESSAGE, INSUFFICIENT_FUNDS_MESSAGE } from './fake-stripe/account.ts';
export { parseForm } from './fake-stripe/form.ts';

/**
 * A local HTTP server that answers like the Stripe API (v1, form-encoded requests, JSON answers, Stripe's
 * error shape and idempotent replays) for every call the Stripe billing provider makes. It keeps a small
 * in-memory account (customers, cards, subscriptions, schedules, invoices) so flows run end to end, and
 * records every request for the contract tests to assert on. The account and its routes, by object, are in
 * fake-stripe/; this file is the server: authentication, forced answers, idempotent replays.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
  rawBody: string;
  headers: IncomingHttpHeaders;
}

export interface ForcedResponse {
  method: string;
  path: string | RegExp;
  status: number;
  body: Json;
  headers?: Record<string, string>;
  times?: number;
}

export interface FakeStripe {
  url: string;
  requests: RecordedRequest[];
  /** Unix seconds of the fake account's clock. */
  now: number;
  prices: Map<string, FakePrice>;
  customers: Map<string, Json>;
  cards: Map<string, FakeCard>;
  subscriptions: Map<string, FakeSubscription>;
  schedules: Map<string, FakeSchedule>;
  invoices: Map<string, FakeInvoice>;
  /** A card as Stripe Elements would create it through a confirmed SetupIntent (attached to `customer`). */
  addCard(
    customer: string | null,
    card?: Partial<Pick<FakeCard, 'brand' | 'last4' | 'exp_month' | 'exp_year' | 'decline'>>,
  ): string;
  /** Answers the next matching request(s) with this status and body instead (e.g. a 500 to force a retry). */
  force(response: ForcedResponse): void;
  /** Requests recorded so far that match, oldest first. */
  find(method: string, path: string | RegExp): RecordedRequest[];
  subscriptionObject(id: string, expand?: string[]): Json;
  clear(): void;
  close(): Promise<void>;
}

const ROUTES: FakeRoutes[] = [
  priceRoutes,
  customerRoutes,
  cardRoutes,
  subscriptionRoutes,
  scheduleRoutes,
  invoiceAndSessionRoutes,
];

function route(account: FakeAccount, method: string, path: string, query: Json, body: Json): Answer {
  const expand = ((method === 'GET' ? query.expand : body.expand) as string[] | undefined) ?? [];
  for (const routes of ROUTES) {
    const answer = routes(account, { method, path, query, body, expand });
    if (answer) return answer;
  }
  return error(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
}

/** The fake's state: the account the routes change, and what the server keeps of requests and keys. */
function createFakeState(options: { prices?: FakePrice[]; now?: number }) {
  const fake = {
    url: '',
    requests: [] as RecordedRequest[],
    now: options.now ?? Math.floor(Date.parse('2026-11-23T10:00:00Z') / 1000),
    prices: new Map((options.prices ?? DEFAULT_PRICES).map((price) => [price.id, price])),
    customers: new Map<string, Json>(),
    cards: new Map<string, FakeCard>(),
    subscriptions: new Map<string, FakeSubscription>(),
    schedules: new Map<string, FakeSchedule>(),
    invoices: new Map<string, FakeInvoice>(),
  } as FakeStripe;
  let invoiceCount = 0;
  const account: FakeAccount = {
    get now() {
      return fake.now;
    },
    prices: fake.prices,
    customers: fake.customers,
    cards: fake.cards,
    subscriptions: fake.subscriptions,
    schedules: fake.schedules,
    invoices: fake.invoices,
    get invoiceCount() {
      return invoiceCount;
    },
    set invoiceCount(value) {
      invoiceCount = value;
    },
  };
  fake.subscriptionObject = (subscriptionId, expand) => subscriptionObject(account, subscriptionId, expand);
  return {
    fake,
    account,
    idempotent: new Map<string, { fingerprint: string; status: number; body: Json }>(),
    forced: [] as ForcedResponse[],
    expectedKey: FAKE_SECRET_KEY,
  };
}

type FakeState = ReturnType<typeof createFakeState>;

/** The next forced answer for this request, used up as it is given. */
function takeForced({ forced }: FakeState, method: string, path: string) {
  const forcedIndex = forced.findIndex(
    (entry) =>
      entry.method === method &&
      (typeof entry.path === 'string' ? entry.path === path : entry.path.test(path)),
  );
  if (forcedIndex < 0) return undefined;
  const entry = forced[forcedIndex]!;
  entry.times = (entry.times ?? 1) - 1;
  if (entry.times <= 0) forced.splice(forcedIndex, 1);
  return entry;
}

function createFakeServer(state: FakeState) {
  return createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake-stripe');
    const method = req.method ?? 'GET';
    const recorded: RecordedRequest = {
      method,
      path: url.pathname,
      query: parseForm(url.search.slice(1)),
      body: parseForm(rawBody),
      rawBody,
      headers: req.headers,
    };
    state.fake.requests.push(recorded);

    const send = (status: number, body: Json, headers: Record<string, string> = {}) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'request-id': `req_${randomBytes(6).toString('hex')}`,
        ...headers,
      });
      res.end(JSON.stringify(body));
    };

    if (req.headers.authorization !== `Bearer ${state.expectedKey}`) {
      return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } });
    }
    const forced = takeForced(state, method, url.pathname);
    if (forced) return send(forced.status, forced.body, forced.headers);

    // Stripe's idempotency: the same key replays the first answer; other parameters under the same key are refused.
    const key = req.headers['idempotency-key'];
    const fingerprint = createHash('sha256').update(`${method} ${url.pathname} ${rawBody}`).digest('hex');
    if (method === 'POST' && typeof key === 'string') {
      const previous = state.idempotent.get(key);
      if (previous) {
        if (previous.fingerprint !== fingerprint) {
          return send(400, {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
            },
          });
        }
        return send(previous.status, previous.body, { 'idempotent-replayed': 'true' });
      }
    }
    const answer = route(state.account, method, url.pathname, recorded.query, recorded.body);
    if (method === 'POST' && typeof key === 'string' && answer.status < 500)
      state.idempotent.set(key, { fingerprint, status: answer.status, body: answer.body });
    send(answer.status, answer.body);
  });
}

export async function startFakeStripe(
  options: { prices?: FakePrice[]; now?: number } = {},
): Promise<FakeStripe> {
  const state = createFakeState(options);
  const { fake } = state;
  const server = createFakeServer(state);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  fake.addCard = (customer, card = {}) => {
    const created: FakeCard = {
      id: id('pm'),
      brand: card.brand ?? 'visa',
      last4: card.last4 ?? '4242',
      exp_month: card.exp_month ?? 12,
      exp_year: card.exp_year ?? 2030,
      customer,
      created: fake.now + fake.cards.size,
      decline: card.decline ?? null,
    };
    fake.cards.set(created.id, created);
    return created.id;
  };
  fake.force = (response) => state.forced.push(response);
  fake.find = (method, path) =>
    fake.requests.filter(
      (request) =>
        request.method === method &&
        (typeof path === 'string' ? request.path === path : path.test(request.path)),
    );
  fake.clear = () => {
    fake.requests.length = 0;
  };
  fake.close = () =>
    new Promise<void>((resolve, reject) => {
      state.expectedKey = '';
      server.closeAllConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    });
  return fake;
}

export const FAKE_SECRET_KEY = 'sk_test_fake_contract_key';

export const FAKE_PRICES = {
  STARTER: { monthly: 'price_starter_monthly', yearly: 'price_starter_yearly' },
  GROWTH: { monthly: 'price_growth_monthly', yearly: 'price_growth_yearly' },
} as const;

const DEFAULT_PRICES: FakePrice[] = [
  { id: FAKE_PRICES.STARTER.monthly, unit_amount: 2900, currency: 'usd', interval: 'month' },
  { id: FAKE_PRICES.STARTER.yearly, unit_amount: 27840, currency: 'usd', interval: 'year' },
  { id: FAKE_PRICES.GROWTH.monthly, unit_amount: 7900, currency: 'usd', interval: 'month' },
  { id: FAKE_PRICES.GROWTH.yearly, unit_amount: 75840, currency: 'usd', interval: 'year' },
];
