import { timingSafeEqual } from 'node:crypto';
import { authMessages } from '@waitlist/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { OutboxOutcome, OutboxWorker } from '../outbox/index.ts';

export interface Metrics {
  registry: Registry;
  /** Feeds the outbox worker's per-delivery outcomes into the counters. */
  outboxDelivery(kind: string, outcome: OutboxOutcome): void;
}

/**
 * Prometheus metrics (prom-client) for the people running the product: request rates and latencies by
 * route, outbox depth and age, sends and failures by provider, webhook rates. One registry per app, so
 * tests that build several apps in one process do not collide.
 */
export function createMetrics(deps: { providers: { email: string; sms: string } }): Metrics & {
  attach(outbox: Pick<OutboxWorker, 'depth'>): void;
} {
  const registry = new Registry();
  const deliveries = new Counter({
    name: 'outbox_deliveries_total',
    help: 'Outbox delivery attempts by kind, provider and outcome (sent, retry, dead, deferred by the send rate)',
    labelNames: ['kind', 'provider', 'outcome'] as const,
    registers: [registry],
  });
  let outbox: Pick<OutboxWorker, 'depth'> | undefined;
  // prom-client reads every metric in parallel, so each gauge asks for itself (one small GROUP BY each).
  new Gauge({
    name: 'outbox_rows',
    help: 'Outbox rows by kind and status',
    labelNames: ['kind', 'status'] as const,
    registers: [registry],
    async collect() {
      if (!outbox) return;
      const rows = await outbox.depth();
      this.reset();
      for (const row of rows) this.set({ kind: row.kind, status: row.status }, row.count);
    },
  });
  new Gauge({
    name: 'outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest pending outbox row by kind (0 when none is pending)',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      if (!outbox) return;
      const rows = await outbox.depth();
      this.reset();
      for (const kind of ['email', 'sms']) this.set({ kind }, 0);
      for (const row of rows) {
        if (row.status === 'pending' && row.oldest) {
          this.set({ kind: row.kind }, Math.max(0, (Date.now() - row.oldest.getTime()) / 1000));
        }
      }
    },
  });
  return {
    registry,
    outboxDelivery(kind, outcome) {
      const provider = kind === 'sms' ? deps.providers.sms : deps.providers.email;
      deliveries.inc({ kind, provider, outcome });
    },
    attach(worker) {
      outbox = worker;
    },
  };
}

/**
 * Times every request by its route pattern (never the raw URL: ids would explode the label set) and, when
 * a token is configured, serves GET /metrics behind `Authorization: Bearer <METRICS_TOKEN>`. Without a token
 * there is no endpoint: metrics are never public.
 */
export function registerMetrics(
  app: FastifyInstance,
  metrics: Metrics,
  options: { token: string | undefined },
) {
  const { registry } = metrics;
  if (options.token) collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const webhooks = new Counter({
    name: 'webhooks_received_total',
    help: 'Provider webhooks by provider and status',
    labelNames: ['provider', 'status'] as const,
    registers: [registry],
  });
  // Each route counts its own requests with a route-level hook that knows the route's pattern (issue 16):
  // reading it per request through request.routeOptions builds an object on every call, and prom-client
  // checks and hashes a label set on every call; both showed in the CPU profile of the cheapest request.
  // The label children of each method and status are looked up once. Requests no route matched are
  // counted by one app-wide hook.
  const recorderOf = (route: string) => {
    const children = new Map<string, (seconds: number) => void>();
    const childOf = (method: string, statusCode: number) => {
      const status = String(statusCode);
      const counted = requests.labels({ method, route, status });
      const timed = duration.labels({ method, route });
      const webhook = /^\/api\/v1\/webhooks\/(\w+)/.exec(route);
      const hooked = webhook ? webhooks.labels({ provider: webhook[1]!, status }) : undefined;
      return (seconds: number) => {
        counted.inc();
        timed.observe(seconds);
        hooked?.inc();
      };
    };
    return (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      const key = `${request.method} ${reply.statusCode}`;
      let record = children.get(key);
      if (!record) {
        record = childOf(request.method, reply.statusCode);
        children.set(key, record);
      }
      record(reply.elapsedTime / 1000);
      done();
    };
  };
  app.addHook('onRoute', (route) => {
    route.onResponse = [route.onResponse ?? []].flat().concat(recorderOf(route.url));
  });
  const unmatched = recorderOf('unmatched');
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) unmatched(request, reply, done);
    else done();
  });
  if (!options.token) return;
  const expected = Buffer.from(`Bearer ${options.token}`);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const given = Buffer.from(request.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return reply.status(401).send({ success: false, message: authMessages.metricsTokenRequired });
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
