import { randomUUID } from 'node:crypto';
import { setPlanCatalogue } from '@waitlist/contract';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { composeServices, type Services } from './composition.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import type { AdminService } from './features/admin/admin.service.ts';
import type { AuthService } from './features/auth/auth.service.ts';
import type { SocialAuthService } from './features/auth/social.service.ts';
import type { BillingService } from './features/billing/billing.service.ts';
import type { BillingWorker } from './features/billing/billing.worker.ts';
import type { CalendarService } from './features/calendar/calendar.service.ts';
import type { CalendarWorker } from './features/calendar/calendar.worker.ts';
import type { IcsParserOptions } from './features/calendar/ics-parser.ts';
import type { Conversation } from './features/conversation/conversation.service.ts';
import type { DashboardService } from './features/dashboard/dashboard.service.ts';
import type { WeeklySummaryWorker } from './features/dashboard/weekly-summary.ts';
import type { MessagingService } from './features/messaging/messaging.service.ts';
import type { OpeningsService } from './features/openings/openings.service.ts';
import type { OpeningsWorker } from './features/openings/openings.worker.ts';
import type { WaitlistService } from './features/waitlist/waitlist.service.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { logSerializers } from './lib/logger.ts';
import type { OutboxWorker } from './outbox/index.ts';
import { frameworkErrors, registerErrorHandler } from './plugins/error-handler.ts';
import { type Metrics, registerMetrics } from './plugins/metrics.ts';
import { logDestination, registerAccessLog } from './plugins/request-log.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerStorableTextRule } from './plugins/storable-text.ts';
import type { BillingProvider } from './providers/billing/index.ts';
import type { EmailProvider } from './providers/email/index.ts';
import { socialSignInCspSources } from './providers/identity/csp.ts';
import type { IdentityProviders } from './providers/identity/index.ts';
import type { SmsProvider } from './providers/sms/index.ts';
import { registerRoutes } from './routes.ts';

// The app is built in three places, by concern: this file makes the Fastify instance, its hooks and its
// decorations; composition.ts builds every service from the config and the providers; routes.ts registers
// the route plugins, the local tools and the web app.
export { API_PREFIX, webCacheControl } from './routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    outbox: OutboxWorker;
    billingWorker: BillingWorker;
    openingsWorker: OpeningsWorker;
    calendarWorker: CalendarWorker;
    weeklySummaryWorker: WeeklySummaryWorker;
    metrics: Metrics;
    /** `draining` is set by main.ts when shutdown starts: readiness then answers 503. */
    lifecycle: { draining: boolean; inFlight: number };
    /** Before exiting: the pending log lines written, or given up after `withinMs` (request-log.ts). */
    settleLogs(withinMs: number): Promise<void>;
    services: {
      admin: AdminService;
      auth: AuthService;
      socialAuth: SocialAuthService;
      email: EmailProvider;
      billing: BillingService;
      messaging: MessagingService;
      conversation: Conversation;
      sms: SmsProvider;
      waitlist: WaitlistService;
      openings: OpeningsService;
      dashboard: DashboardService;
      calendar: CalendarService;
    };
    /** Every route as registered (method and URL, HEAD left out): the authorization matrix walks it. */
    routeTable: { method: string; url: string }[];
  }
}

export interface BuildAppOptions {
  config: Config;
  database: DatabaseHandle;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  /** Replaces the provider chosen by config (contract tests use a real SMTP provider this way). */
  emailProvider?: EmailProvider;
  /** Replaces the billing provider chosen by config (e.g. Stripe pointed at a local fake in contract tests). */
  billingProvider?: BillingProvider;
  /** Replaces the SMS provider chosen by config. */
  smsProvider?: SmsProvider;
  /** Replaces the identity providers chosen by config. */
  identityProviders?: IdentityProviders;
  /** Jitter on outbox retry delays (default ±20 %); tests that assert exact backoff pass the identity. */
  retryJitter?: (delayMs: number) => number;
  /** The calendar parser's time limit and threads (issue 38; tests use a shorter limit). */
  calendarParse?: IcsParserOptions;
}

/** TRUST_PROXY as a hop count: believe that many proxies, counted from the server's own peer. */
const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/** The Fastify instance with what every request goes through first: ids, validation, errors, the access log. */
function createFastify(options: BuildAppOptions, logs: ReturnType<typeof logDestination> | undefined) {
  const { config } = options;
  const app = Fastify({
    logger: options.logger ?? {
      level: config.logLevel,
      stream: logs!.destination,
      serializers: logSerializers,
    },
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    },
    bodyLimit: 100 * 1024,
    // Path parameters up to their schemas' own limits (a 200-character reset token), refused in words past them.
    routerOptions: { maxParamLength: 500 },
    frameworkErrors,
    forceCloseConnections: 'idle',
    // One access line per request (plugins/request-log.ts), not Fastify's two (issue 16).
    logController: new LogController({ disableRequestLogging: true }),
    // TRUST_PROXY: whose X-Forwarded-For gives request.ip (the per-address throttles); off by default.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
  }).withTypeProvider<ZodTypeProvider>();

  const routeTable: { method: string; url: string }[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routeTable.push({ method, url: route.url });
    }
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerStorableTextRule(app);
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
  registerAccessLog(app);
  return app;
}

/** Builds the whole application without listening, so tests drive it with `app.inject()`. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const clock = options.clock ?? systemClock;
  // Log lines go to stdout asynchronously, in batches (logDestination), not one write per line on the
  // request's path (issue 16).
  const logs = options.logger === undefined ? logDestination() : undefined;
  const app = createFastify(options, logs);
  // Every limit and refusal reads the operator's plan catalogue (PLANS_JSON; issue 39).
  setPlanCatalogue(config.plans);
  const services = await composeServices({
    options,
    clock,
    logger: app.log,
    self: app,
  });
  const lifecycle = { draining: false, inFlight: 0 };
  decorateApp(app, { config, services, lifecycle, logs });
  registerContentSecurityPolicy(app, config, services.billingProvider);
  await registerRoutes(app, { config, database, clock, services, lifecycle });
  return app;
}

/** The workers, metrics, lifecycle and services on the instance, the in-flight count, and what closing stops. */
function decorateApp(
  app: FastifyInstance,
  parts: {
    config: Config;
    services: Services;
    lifecycle: FastifyInstance['lifecycle'];
    logs: ReturnType<typeof logDestination> | undefined;
  },
) {
  const { config, services, lifecycle, logs } = parts;
  const {
    outbox,
    billingWorker,
    openingsWorker,
    calendarWorker,
    weeklySummaryWorker,
    metrics,
    limiter,
    email,
  } = services;
  app.decorate('outbox', outbox);
  app.decorate('billingWorker', billingWorker);
  app.decorate('openingsWorker', openingsWorker);
  app.decorate('calendarWorker', calendarWorker);
  app.decorate('weeklySummaryWorker', weeklySummaryWorker);
  app.decorate('metrics', metrics);
  app.decorate('lifecycle', lifecycle);
  app.decorate('settleLogs', (withinMs: number) => logs?.settle(withinMs) ?? Promise.resolve());
  registerMetrics(app, metrics, { token: config.metricsToken });
  // Requests in flight, for the shutdown report (a response that never completes still closes its socket).
  // Callback hooks, not async ones, and one shared listener: this runs on every request (issue 16).
  const requestClosed = () => {
    lifecycle.inFlight -= 1;
  };
  app.addHook('onRequest', (_request, reply, done) => {
    lifecycle.inFlight += 1;
    reply.raw.on('close', requestClosed);
    done();
  });
  // While shutting down, answers close their keep-alive connection, so the server is not left waiting on them.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (lifecycle.draining) reply.header('connection', 'close');
    done(null, payload);
  });
  app.decorate('services', {
    admin: services.adminService,
    auth: services.authService,
    socialAuth: services.socialAuthService,
    email,
    billing: services.billingService,
    messaging: services.messagingService,
    conversation: services.conversation,
    sms: services.sms,
    waitlist: services.waitlistService,
    openings: services.openingsService,
    dashboard: services.dashboardService,
    calendar: services.calendarService,
  });
  app.decorateRequest('session', null);
  app.addHook('onClose', async () => {
    logs?.stop();
    await billingWorker.stop();
    await openingsWorker.stop();
    await calendarWorker.stop();
    await weeklySummaryWorker.stop();
    await outbox.stop();
    await limiter.close();
    await email.close();
  });
}

/** helmet's headers, computed once at start (plugins/security-headers.ts), with the origins the pages load from. */
function registerContentSecurityPolicy(
  app: FastifyInstance,
  config: Config,
  billingProvider: BillingProvider,
) {
  // Each configured sign-in provider adds the origins its browser SDK needs, and only those.
  const social = socialSignInCspSources(config.social);
  // Stripe Elements (issue 4) loads from js.stripe.com, frames 3-D Secure and talks to api.stripe.com.
  const stripeCsp = billingProvider.name === 'stripe';
  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...social.scriptSrc, ...(stripeCsp ? ['https://js.stripe.com'] : [])],
        styleSrc: ["'self'", "'unsafe-inline'", ...social.styleSrc],
        imgSrc: ["'self'", 'data:', ...social.imgSrc],
        connectSrc: ["'self'", ...social.connectSrc, ...(stripeCsp ? ['https://api.stripe.com'] : [])],
        frameSrc: [
          "'self'",
          ...social.frameSrc,
          ...(stripeCsp ? ['https://js.stripe.com', 'https://hooks.stripe.com'] : []),
        ],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
  });
}
