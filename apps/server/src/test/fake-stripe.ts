import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server that answers like the Stripe API (v1, form-encoded requests, JSON answers, Stripe's
 * error shape and idempotent replays) for every call the Stripe billing provider makes. It keeps a small
 * in-memory account (customers, cards, subscriptions, schedules, invoices) so flows run end to end, and
 * records every request for the contract tests to assert on.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
  rawBody: string;
  headers: IncomingHttpHeaders;
}

type Json = Record<string, unknown>;
type Interval = 'month' | 'year';

interface FakePrice {
  id: string;
  unit_amount: number;
  currency: string;
  interval: Interval;
}
interface FakeCard {
  id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  customer: string | null;
  created: number;
  /** What a charge on this card does: succeed, or fail with this decline code. */
  decline: null | 'generic_decline' | 'insufficient_funds';
}
interface FakeSubscription {
  id: string;
  customer: string;
  status: string;
  created: number;
  itemId: string;
  price: string;
  periodStart: number;
  periodEnd: number;
  cancelAtPeriodEnd: boolean;
  cancelAt: number | null;
  defaultPaymentMethod: string | null;
  latestInvoice: string | null;
  schedule: string | null;
  metadata: Json;
}
interface FakePhase {
  start_date: number;
  end_date: number;
  items: { price: string; quantity: number }[];
}
interface FakeSchedule {
  id: string;
  subscription: string;
  customer: string;
  status: string;
  end_behavior: string;
  phases: FakePhase[];
  created: number;
}
interface FakeInvoice {
  id: string;
  number: string;
  customer: string;
  subscription: string | null;
  created: number;
  amount_due: number;
  amount_paid: number;
  currency: string;
  status: string;
  description: string;
}

export interface ForcedResponse {
  method: string;
  path: string | RegExp;
  status: number;
  body: Json;
  headers?: Record<string, string>;
  times?: number;
}

export const DECLINED_MESSAGE = 'Your card was declined.';
export const INSUFFICIENT_FUNDS_MESSAGE = 'Your card has insufficient funds.';

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

export async function startFakeStripe(
  options: { prices?: FakePrice[]; now?: number } = {},
): Promise<FakeStripe> {
  const prices = new Map((options.prices ?? DEFAULT_PRICES).map((price) => [price.id, price]));
  const customers = new Map<string, Json>();
  const cards = new Map<string, FakeCard>();
  const subscriptions = new Map<string, FakeSubscription>();
  const schedules = new Map<string, FakeSchedule>();
  const invoices = new Map<string, FakeInvoice>();
  const idempotent = new Map<string, { fingerprint: string; status: number; body: Json }>();
  const forced: ForcedResponse[] = [];
  const requests: RecordedRequest[] = [];
  let invoiceCounter = 0;

  const fake = {
    url: '',
    requests,
    now: options.now ?? Math.floor(Date.parse('2026-11-23T10:00:00Z') / 1000),
    prices,
    customers,
    cards,
    subscriptions,
    schedules,
    invoices,
  } as FakeStripe;

  const id = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;

  // ---- objects as Stripe renders them ----
  const priceObject = (price: FakePrice) => ({
    id: price.id,
    object: 'price',
    active: true,
    currency: price.currency,
    unit_amount: price.unit_amount,
    recurring: { interval: price.interval, interval_count: 1, usage_type: 'licensed' },
    type: 'recurring',
    metadata: {},
  });
  const cardObject = (card: FakeCard) => ({
    id: card.id,
    object: 'payment_method',
    type: 'card',
    created: card.created,
    customer: card.customer,
    card: { brand: card.brand, last4: card.last4, exp_month: card.exp_month, exp_year: card.exp_year },
  });
  const invoiceObject = (invoice: FakeInvoice) => ({
    id: invoice.id,
    object: 'invoice',
    number: invoice.number,
    customer: invoice.customer,
    created: invoice.created,
    amount_due: invoice.amount_due,
    amount_paid: invoice.amount_paid,
    amount_remaining: invoice.amount_due - invoice.amount_paid,
    currency: invoice.currency,
    status: invoice.status,
    description: null,
    hosted_invoice_url: `https://invoice.stripe.test/i/${invoice.id}`,
    invoice_pdf: `https://pay.stripe.test/invoice/${invoice.id}/pdf`,
    parent: invoice.subscription
      ? { type: 'subscription_details', subscription_details: { subscription: invoice.subscription } }
      : null,
    lines: {
      object: 'list',
      data: [
        { id: id('il'), object: 'line_item', amount: invoice.amount_due, description: invoice.description },
      ],
      has_more: false,
    },
  });
  const scheduleObject = (schedule: FakeSchedule) => {
    const current = schedule.phases.find(
      (phase) => phase.start_date <= fake.now && fake.now < phase.end_date,
    );
    return {
      id: schedule.id,
      object: 'subscription_schedule',
      customer: schedule.customer,
      subscription: schedule.subscription,
      status: schedule.status,
      end_behavior: schedule.end_behavior,
      created: schedule.created,
      current_phase: current ? { start_date: current.start_date, end_date: current.end_date } : null,
      phases: schedule.phases.map((phase) => ({ ...phase, items: phase.items.map((item) => ({ ...item })) })),
      released_subscription: schedule.status === 'released' ? schedule.subscription : null,
    };
  };
  const subscriptionObject = (subscriptionId: string, expand: string[] = []): Json => {
    const sub = subscriptions.get(subscriptionId)!;
    const price = prices.get(sub.price)!;
    const schedule =
      sub.schedule && expand.includes('schedule')
        ? scheduleObject(schedules.get(sub.schedule)!)
        : sub.schedule;
    const latest =
      sub.latestInvoice && expand.includes('latest_invoice')
        ? invoiceObject(invoices.get(sub.latestInvoice)!)
        : sub.latestInvoice;
    return {
      id: sub.id,
      object: 'subscription',
      customer: sub.customer,
      status: sub.status,
      created: sub.created,
      start_date: sub.created,
      billing_cycle_anchor: sub.periodStart,
      cancel_at_period_end: sub.cancelAtPeriodEnd,
      cancel_at: sub.cancelAt,
      default_payment_method: sub.defaultPaymentMethod,
      latest_invoice: latest,
      schedule,
      metadata: sub.metadata,
      items: {
        object: 'list',
        data: [
          {
            id: sub.itemId,
            object: 'subscription_item',
            price: priceObject(price),
            quantity: 1,
            current_period_start: sub.periodStart,
            current_period_end: sub.periodEnd,
          },
        ],
        has_more: false,
      },
    };
  };
  fake.subscriptionObject = subscriptionObject;

  const list = (url: string, data: unknown[]) => ({ object: 'list', url, has_more: false, data });
  const error = (status: number, type: string, message: string, extra: Json = {}) => ({
    status,
    body: { error: { type, message, ...extra } },
  });
  const missing = (kind: string, value: string) =>
    error(404, 'invalid_request_error', `No such ${kind}: '${value}'`, { code: 'resource_missing' });

  const addInterval = (from: number, interval: Interval) => {
    const date = new Date(from * 1000);
    if (interval === 'year') date.setUTCFullYear(date.getUTCFullYear() + 1);
    else date.setUTCMonth(date.getUTCMonth() + 1);
    return Math.floor(date.getTime() / 1000);
  };

  /** Charges a card: null when paid, or Stripe's card_error answer. */
  const charge = (cardId: string | null) => {
    const card = cardId ? cards.get(cardId) : undefined;
    if (!card)
      return error(
        400,
        'invalid_request_error',
        'This customer has no attached payment source or default payment method.',
        {
          code: 'resource_missing',
        },
      );
    if (card.decline === 'insufficient_funds')
      return error(402, 'card_error', INSUFFICIENT_FUNDS_MESSAGE, {
        code: 'card_declined',
        decline_code: 'insufficient_funds',
      });
    if (card.decline)
      return error(402, 'card_error', DECLINED_MESSAGE, {
        code: 'card_declined',
        decline_code: card.decline,
      });
    return null;
  };

  const createInvoice = (customer: string, subscription: string, amount: number, description: string) => {
    invoiceCounter += 1;
    const invoice: FakeInvoice = {
      id: id('in'),
      number: `FAKE-${String(invoiceCounter).padStart(4, '0')}`,
      customer,
      subscription,
      created: fake.now,
      amount_due: amount,
      amount_paid: amount,
      currency: 'usd',
      status: 'paid',
      description,
    };
    invoices.set(invoice.id, invoice);
    return invoice;
  };

  const cardOfCustomer = (customerId: string, explicit?: unknown): string | null => {
    if (typeof explicit === 'string' && explicit) return explicit;
    const customer = customers.get(customerId);
    const settings = customer?.invoice_settings as { default_payment_method: string | null } | undefined;
    return settings?.default_payment_method ?? null;
  };

  // ---- routes ----
  type Answer = { status: number; body: Json };
  const ok = (body: Json): Answer => ({ status: 200, body });

  function route(method: string, path: string, query: Json, body: Json): Answer {
    const expand = ((method === 'GET' ? query.expand : body.expand) as string[] | undefined) ?? [];

    const priceMatch = path.match(/^\/v1\/prices\/([^/]+)$/);
    if (method === 'GET' && priceMatch) {
      const match = priceMatch;
      const price = prices.get(match[1]!);
      return price ? ok(priceObject(price)) : missing('price', match[1]!);
    }

    if (method === 'POST' && path === '/v1/customers') {
      const customer = {
        id: id('cus'),
        object: 'customer',
        email: body.email ?? null,
        name: body.name ?? null,
        metadata: body.metadata ?? {},
        address: null,
        created: fake.now,
        invoice_settings: { default_payment_method: null },
      };
      customers.set(customer.id, customer);
      return ok(customer);
    }
    const customerMatch = path.match(/^\/v1\/customers\/([^/]+)$/);
    if (customerMatch) {
      const match = customerMatch;
      const customer = customers.get(match[1]!);
      if (!customer) return missing('customer', match[1]!);
      // A deleted customer can still be retrieved (as a stub with `deleted: true`), but not changed or deleted again.
      if (customer.deleted) return method === 'GET' ? ok(customer) : missing('customer', match[1]!);
      if (method === 'DELETE') {
        // As Stripe: the customer's subscriptions are canceled at once (their schedules with them), its cards detached.
        const customerId = match[1]!;
        for (const sub of subscriptions.values()) {
          if (sub.customer !== customerId || sub.status === 'canceled') continue;
          sub.status = 'canceled';
          sub.cancelAtPeriodEnd = false;
          sub.cancelAt = null;
          const schedule = sub.schedule ? schedules.get(sub.schedule) : undefined;
          if (schedule && ['active', 'not_started'].includes(schedule.status)) schedule.status = 'canceled';
        }
        for (const card of cards.values()) if (card.customer === customerId) card.customer = null;
        const deleted = { id: customerId, object: 'customer', deleted: true };
        customers.set(customerId, deleted);
        return ok(deleted);
      }
      if (method === 'POST') {
        for (const key of ['name', 'email', 'address'] as const) if (key in body) customer[key] = body[key];
        const settings = body.invoice_settings as Json | undefined;
        if (settings && 'default_payment_method' in settings)
          customer.invoice_settings = { default_payment_method: settings.default_payment_method || null };
      }
      return ok(customer);
    }

    if (method === 'POST' && path === '/v1/setup_intents') {
      const intentId = id('seti');
      return ok({
        id: intentId,
        object: 'setup_intent',
        customer: body.customer,
        usage: body.usage,
        status: 'requires_payment_method',
        client_secret: `${intentId}_secret_${randomBytes(8).toString('hex')}`,
      });
    }

    if (method === 'GET' && path === '/v1/payment_methods') {
      const data = [...cards.values()]
        .filter((card) => card.customer === query.customer)
        .sort((a, b) => b.created - a.created)
        .map(cardObject);
      return ok(list('/v1/payment_methods', data));
    }
    const cardMatch = path.match(/^\/v1\/payment_methods\/([^/]+)(?:\/(attach|detach))?$/);
    if (cardMatch) {
      const match = cardMatch;
      const card = cards.get(match[1]!);
      if (!card) return missing('PaymentMethod', match[1]!);
      if (method === 'POST' && match[2] === 'attach') {
        if (card.customer)
          return error(
            400,
            'invalid_request_error',
            'The payment method you provided has already been attached to a customer.',
          );
        card.customer = String(body.customer);
      }
      if (method === 'POST' && match[2] === 'detach') {
        const owner = card.customer && customers.get(card.customer);
        const settings = owner ? (owner.invoice_settings as { default_payment_method: string | null }) : null;
        if (owner && settings?.default_payment_method === card.id)
          owner.invoice_settings = { default_payment_method: null };
        card.customer = null;
      }
      return ok(cardObject(card));
    }

    if (method === 'GET' && path === '/v1/subscriptions') {
      const data = [...subscriptions.values()]
        .filter((sub) => sub.customer === query.customer && sub.status !== 'canceled')
        .sort((a, b) => b.created - a.created)
        .map((sub) =>
          subscriptionObject(
            sub.id,
            expand.filter((e) => e.startsWith('data.')).map((e) => e.slice(5)),
          ),
        );
      return ok(list('/v1/subscriptions', data));
    }
    if (method === 'POST' && path === '/v1/subscriptions') {
      const items = body.items as { price: string }[] | undefined;
      const price = items?.[0] && prices.get(items[0].price);
      if (!price) return missing('price', String(items?.[0]?.price));
      const customer = String(body.customer);
      if (!customers.has(customer) || customers.get(customer)!.deleted) return missing('customer', customer);
      const card = cardOfCustomer(customer, body.default_payment_method);
      const refused = charge(card);
      if (refused && body.payment_behavior === 'error_if_incomplete') return refused;
      const sub: FakeSubscription = {
        id: id('sub'),
        customer,
        status: refused ? 'incomplete' : 'active',
        created: fake.now,
        itemId: id('si'),
        price: price.id,
        periodStart: fake.now,
        periodEnd: addInterval(fake.now, price.interval),
        cancelAtPeriodEnd: false,
        cancelAt: null,
        defaultPaymentMethod:
          typeof body.default_payment_method === 'string' ? body.default_payment_method : null,
        latestInvoice: null,
        schedule: null,
        metadata: (body.metadata as Json) ?? {},
      };
      sub.latestInvoice = createInvoice(
        customer,
        sub.id,
        price.unit_amount,
        `Subscription to ${price.id}`,
      ).id;
      subscriptions.set(sub.id, sub);
      return ok(subscriptionObject(sub.id, expand));
    }
    const subscriptionMatch = path.match(/^\/v1\/subscriptions\/([^/]+)$/);
    if (subscriptionMatch) {
      const match = subscriptionMatch;
      const sub = subscriptions.get(match[1]!);
      if (!sub) return missing('subscription', match[1]!);
      if (method === 'GET') return ok(subscriptionObject(sub.id, expand));
      if (sub.schedule && ('cancel_at_period_end' in body || 'cancel_at' in body)) {
        return error(
          400,
          'invalid_request_error',
          `The subscription is managed by the subscription schedule \`${sub.schedule}\`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.`,
        );
      }
      const items = body.items as { id?: string; price?: string }[] | undefined;
      if (items?.[0]?.price && items[0].price !== sub.price) {
        const next = prices.get(items[0].price);
        if (!next) return missing('price', items[0].price);
        const previous = prices.get(sub.price)!;
        const remaining = Math.max(0, sub.periodEnd - fake.now);
        const period = sub.periodEnd - sub.periodStart;
        const sameInterval = previous.interval === next.interval;
        const amount = sameInterval
          ? Math.round(((next.unit_amount - previous.unit_amount) * remaining) / period)
          : next.unit_amount - Math.round((previous.unit_amount * remaining) / period);
        if (body.proration_behavior === 'always_invoice') {
          const refused = charge(
            cardOfCustomer(sub.customer, body.default_payment_method ?? sub.defaultPaymentMethod),
          );
          if (refused && body.payment_behavior === 'error_if_incomplete') return refused;
          sub.latestInvoice = createInvoice(
            sub.customer,
            sub.id,
            Math.max(0, amount),
            `Prorated change to ${next.id}`,
          ).id;
        }
        sub.price = next.id;
        if (!sameInterval) {
          sub.periodStart = fake.now;
          sub.periodEnd = addInterval(fake.now, next.interval);
        }
      }
      if (typeof body.default_payment_method === 'string')
        sub.defaultPaymentMethod = body.default_payment_method;
      if ('cancel_at_period_end' in body) sub.cancelAtPeriodEnd = body.cancel_at_period_end === 'true';
      if ('cancel_at' in body) sub.cancelAt = body.cancel_at ? Number(body.cancel_at) : null;
      if (body.metadata) sub.metadata = { ...sub.metadata, ...(body.metadata as Json) };
      return ok(subscriptionObject(sub.id, expand));
    }

    if (method === 'POST' && path === '/v1/subscription_schedules') {
      const sub = subscriptions.get(String(body.from_subscription));
      if (!sub) return missing('subscription', String(body.from_subscription));
      if (sub.schedule)
        return error(
          400,
          'invalid_request_error',
          `You cannot migrate a subscription that is already attached to a schedule: \`${sub.schedule}\`.`,
        );
      const schedule: FakeSchedule = {
        id: id('sub_sched'),
        subscription: sub.id,
        customer: sub.customer,
        status: 'active',
        end_behavior: 'release',
        created: fake.now,
        phases: [
          {
            start_date: sub.periodStart,
            end_date: sub.periodEnd,
            items: [{ price: sub.price, quantity: 1 }],
          },
        ],
      };
      schedules.set(schedule.id, schedule);
      sub.schedule = schedule.id;
      return ok(scheduleObject(schedule));
    }
    const scheduleMatch = path.match(/^\/v1\/subscription_schedules\/([^/]+)(?:\/(release))?$/);
    if (scheduleMatch) {
      const match = scheduleMatch;
      const schedule = schedules.get(match[1]!);
      if (!schedule) return missing('subscription_schedule', match[1]!);
      if (method === 'GET') return ok(scheduleObject(schedule));
      if (match[2] === 'release') {
        if (schedule.status !== 'active' && schedule.status !== 'not_started')
          return error(
            400,
            'invalid_request_error',
            `You cannot release a subscription schedule that is currently \`${schedule.status}\`.`,
          );
        schedule.status = 'released';
        const sub = subscriptions.get(schedule.subscription);
        if (sub) sub.schedule = null;
        return ok(scheduleObject(schedule));
      }
      const phases = body.phases as
        | {
            start_date?: string;
            end_date?: string;
            duration?: { interval: Interval };
            items: { price: string; quantity?: string }[];
          }[]
        | undefined;
      if (phases) {
        const currentStart = schedule.phases[0]!.start_date;
        if (Number(phases[0]?.start_date) !== currentStart)
          return error(
            400,
            'invalid_request_error',
            'You can not modify the start date of the current phase.',
          );
        let start = currentStart;
        const next: FakePhase[] = [];
        for (const phase of phases) {
          const price = prices.get(phase.items[0]?.price ?? '');
          if (!price) return missing('price', String(phase.items[0]?.price));
          const end = phase.end_date
            ? Number(phase.end_date)
            : addInterval(start, phase.duration?.interval ?? price.interval);
          next.push({
            start_date: start,
            end_date: end,
            items: [{ price: price.id, quantity: Number(phase.items[0]?.quantity ?? 1) }],
          });
          start = end;
        }
        schedule.phases = next;
      }
      if (typeof body.end_behavior === 'string') schedule.end_behavior = body.end_behavior;
      return ok(scheduleObject(schedule));
    }

    if (method === 'GET' && path === '/v1/invoices') {
      const data = [...invoices.values()]
        .filter((invoice) => invoice.customer === query.customer)
        .sort((a, b) => b.created - a.created)
        .map(invoiceObject);
      return ok(list('/v1/invoices', data));
    }

    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const sessionId = id('cs_test');
      return ok({
        id: sessionId,
        object: 'checkout.session',
        mode: body.mode,
        customer: body.customer,
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        status: 'open',
        url: `https://checkout.stripe.test/c/pay/${sessionId}`,
      });
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const sessionId = id('bps');
      return ok({
        id: sessionId,
        object: 'billing_portal.session',
        customer: body.customer,
        return_url: body.return_url,
        url: `https://billing.stripe.test/p/session/${sessionId}`,
      });
    }

    return error(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
  }

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
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
    requests.push(recorded);

    const send = (status: number, body: Json, headers: Record<string, string> = {}) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'request-id': `req_${randomBytes(6).toString('hex')}`,
        ...headers,
      });
      res.end(JSON.stringify(body));
    };

    if (req.headers.authorization !== `Bearer ${expectedKey}`) {
      return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } });
    }
    const forcedIndex = forced.findIndex(
      (entry) =>
        entry.method === method &&
        (typeof entry.path === 'string' ? entry.path === url.pathname : entry.path.test(url.pathname)),
    );
    if (forcedIndex >= 0) {
      const entry = forced[forcedIndex]!;
      entry.times = (entry.times ?? 1) - 1;
      if (entry.times <= 0) forced.splice(forcedIndex, 1);
      return send(entry.status, entry.body, entry.headers);
    }

    // Stripe's idempotency: the same key replays the first answer; other parameters under the same key are refused.
    const key = req.headers['idempotency-key'];
    const fingerprint = createHash('sha256').update(`${method} ${url.pathname} ${rawBody}`).digest('hex');
    if (method === 'POST' && typeof key === 'string') {
      const previous = idempotent.get(key);
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
    const answer = route(method, url.pathname, recorded.query, recorded.body);
    if (method === 'POST' && typeof key === 'string' && answer.status < 500)
      idempotent.set(key, { fingerprint, status: answer.status, body: answer.body });
    send(answer.status, answer.body);
  });

  let expectedKey = FAKE_SECRET_KEY;
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
      created: fake.now + cards.size,
      decline: card.decline ?? null,
    };
    cards.set(created.id, created);
    return created.id;
  };
  fake.force = (response) => forced.push(response);
  fake.find = (method, path) =>
    requests.filter(
      (request) =>
        request.method === method &&
        (typeof path === 'string' ? request.path === path : path.test(request.path)),
    );
  fake.clear = () => {
    requests.length = 0;
  };
  fake.close = () =>
    new Promise<void>((resolve, reject) => {
      expectedKey = '';
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

/**
 * Parses Stripe's form encoding (qs-style brackets: `items[0][price]=…`, `expand[0]=…`,
 * `metadata[plan]=…`) into nested objects and arrays. Values stay strings, as on the wire.
 */
export function parseForm(encoded: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(encoded)) {
    const segments = key.split(/\[|\]\[|\]/).filter((segment, index) => index === 0 || segment !== '');
    let node: Record<string, unknown> = root;
    segments.forEach((segment, index) => {
      if (index === segments.length - 1) {
        node[segment] = value;
        return;
      }
      node[segment] ??= {};
      node = node[segment] as Record<string, unknown>;
    });
  }
  return arraysFromIndexes(root) as Record<string, unknown>;
}

function arraysFromIndexes(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).map(
    ([key, child]) => [key, arraysFromIndexes(child)] as const,
  );
  const numeric = entries.length > 0 && entries.every(([key]) => /^\d+$/.test(key));
  if (numeric) return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, child]) => child);
  return Object.fromEntries(entries);
}
