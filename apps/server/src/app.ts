import { createHmac, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import { authMessages, isWebPage } from '@waitlist/contract';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { adminRoutes } from './features/admin/admin.routes.ts';
import { type AdminService, createAdminService } from './features/admin/admin.service.ts';
import { authRoutes } from './features/auth/auth.routes.ts';
import { type AuthService, createAuthService } from './features/auth/auth.service.ts';
import { socialAuthRoutes } from './features/auth/social.routes.ts';
import { createSocialAuthService, type SocialAuthService } from './features/auth/social.service.ts';
import { billingRoutes } from './features/billing/billing.routes.ts';
import { type BillingService, createBillingService } from './features/billing/billing.service.ts';
import { type BillingWorker, createBillingWorker } from './features/billing/billing.worker.ts';
import { localBillingPages } from './features/billing/local-billing.pages.ts';
import { localBillingRoutes } from './features/billing/local-billing.routes.ts';
import { notificationsRoutes } from './features/billing/notifications.routes.ts';
import { dashboardRoutes } from './features/dashboard/dashboard.routes.ts';
import { createDashboardService, type DashboardService } from './features/dashboard/dashboard.service.ts';
import {
  createWeeklySummary,
  createWeeklySummaryWorker,
  type WeeklySummaryWorker,
} from './features/dashboard/weekly-summary.ts';
import { devMailboxRoutes } from './features/dev/dev.routes.ts';
import { devPhoneRoutes } from './features/dev/phone.routes.ts';
import { apiDocsRoutes } from './features/docs/api-docs.routes.ts';
import { phoneNumberRoutes } from './features/messaging/messaging.routes.ts';
import { createMessagingService, type MessagingService } from './features/messaging/messaging.service.ts';
import { plivoWebhookRoutes } from './features/messaging/plivo-webhooks.routes.ts';
import { createSmsDelivery } from './features/messaging/sms-delivery.ts';
import { openingsRoutes } from './features/openings/openings.routes.ts';
import { createOpeningsService, type OpeningsService } from './features/openings/openings.service.ts';
import { createOpeningsWorker, type OpeningsWorker } from './features/openings/openings.worker.ts';
import { pushRoutes } from './features/push/push.routes.ts';
import {
  createPushDelivery,
  createPushService,
  loadVapidKeys,
  notifyOwner,
} from './features/push/push.service.ts';
import { createPushEndpoints } from './features/push/push-endpoint.ts';
import { systemRoutes } from './features/system/system.routes.ts';
import { usersRoutes } from './features/users/users.routes.ts';
import { inboxRoutes } from './features/waitlist/inbox.routes.ts';
import { createInboxService } from './features/waitlist/inbox.service.ts';
import { joinRoutes } from './features/waitlist/join.routes.ts';
import { createJoinService } from './features/waitlist/join.service.ts';
import { createJoinProof } from './features/waitlist/join-proof.ts';
import { waitlistRoutes } from './features/waitlist/waitlist.routes.ts';
import { createWaitlistService, type WaitlistService } from './features/waitlist/waitlist.service.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { createRateLimiter } from './lib/rate-limit.ts';
import { useNonce } from './nonces/index.ts';
import { createOutboxWorker, type OutboxWorker, withJitter } from './outbox/index.ts';
import { createAuthenticate } from './plugins/authenticate.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';
import { localToolsGuard } from './plugins/local-tools.ts';
import { createMetrics, type Metrics, registerMetrics } from './plugins/metrics.ts';
import { logDestination, registerAccessLog } from './plugins/request-log.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerStorableTextRule } from './plugins/storable-text.ts';
import { type BillingProvider, createBillingProvider } from './providers/billing/index.ts';
import { isLocalBillingProvider } from './providers/billing/local.ts';
import { createEmailProvider, type EmailProvider } from './providers/email/index.ts';
import { socialSignInCspSources } from './providers/identity/csp.ts';
import { createIdentityProviders, type IdentityProviders } from './providers/identity/index.ts';
import { createSmsProvider, type SmsProvider } from './providers/sms/index.ts';
import {
  adminUsers,
  billingUsers,
  businessNumbers,
  dashboardSources,
  enqueueSms,
  enqueueSmsMany,
  inboxOffers,
  joinOwners,
  openingCustomers,
  owners,
  pushUsers,
  readOnlyReason,
  summaryUsers,
  textingCustomers,
} from './wiring.ts';

declare module 'fastify' {
  interface FastifyInstance {
    outbox: OutboxWorker;
    billingWorker: BillingWorker;
    openingsWorker: OpeningsWorker;
    weeklySummaryWorker: WeeklySummaryWorker;
    metrics: Metrics;
    /** `draining` is set by main.ts when shutdown starts: readiness then answers 503. */
    lifecycle: { draining: boolean; inFlight: number };
    services: {
      admin: AdminService;
      auth: AuthService;
      socialAuth: SocialAuthService;
      email: EmailProvider;
      billing: BillingService;
      messaging: MessagingService;
      sms: SmsProvider;
      waitlist: WaitlistService;
      openings: OpeningsService;
      dashboard: DashboardService;
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
}

export const API_PREFIX = '/api/v1';

/** Hashed build assets are immutable; everything else the web app serves (index.html first) is revalidated. */
export function webCacheControl(path: string): string {
  return /[\\/]assets[\\/]/.test(path)
    ? 'public, max-age=31536000, immutable'
    : 'no-cache, no-store, must-revalidate';
}

/** TRUST_PROXY as a hop count: believe that many proxies, counted from the server's own peer. */
const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/** Builds the whole application without listening, so tests drive it with `app.inject()`. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const clock = options.clock ?? systemClock;
  // Log lines go to stdout asynchronously, in batches (logDestination), not one write per line on the
  // request's path (issue 16).
  const logs = options.logger === undefined ? logDestination() : undefined;
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel, stream: logs!.destination },
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    },
    bodyLimit: 100 * 1024,
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

  // ---- wiring: every service receives its dependencies here, in one place ----
  const email =
    options.emailProvider ??
    createEmailProvider(config.email, {
      db: database.db,
      logger: app.log,
      // Codes and reset links reach the log only for the person at the machine (loopback HOST).
      logSecrets: config.localTools === 'anyone',
    });
  const sms =
    options.smsProvider ??
    createSmsProvider(config.sms, {
      db: database.db,
      logger: app.log,
      publicUrl: config.publicUrl,
      logTexts: config.localTools === 'anyone',
    });
  const smsDelivery = createSmsDelivery({
    db: database.db,
    sms,
    clock,
    logger: app.log,
    sendRate: config.sms.sendRate,
  });
  // The VAPID pair: configured, else generated once and stored (read lazily, after the migrations ran).
  let vapid: ReturnType<typeof loadVapidKeys> | undefined;
  const vapidKeys = () => {
    vapid ??= loadVapidKeys(database.db, config.push);
    vapid.catch(() => {
      vapid = undefined;
    });
    return vapid;
  };
  const metrics = createMetrics({ providers: { email: email.name, sms: sms.name } });
  // Pushes go to https push services on public addresses only, and to the local one LOCAL_PUSH_SERVICES names.
  const pushEndpoints = createPushEndpoints({ localServices: config.push.localServices });
  const pushService = createPushService({
    db: database.db,
    keys: vapidKeys,
    users: pushUsers,
    endpoints: pushEndpoints,
  });
  const pushDelivery = createPushDelivery({
    db: database.db,
    keys: vapidKeys,
    endpoints: pushEndpoints,
    subject: config.push.subject,
    logger: app.log,
  });
  const outbox = createOutboxWorker({
    db: database.db,
    email,
    sms: smsDelivery,
    push: pushDelivery,
    clock,
    logger: app.log,
    onDelivery: metrics.outboxDelivery,
    jitter: options.retryJitter ?? ((delayMs) => withJitter(delayMs)),
  });
  metrics.attach(outbox);
  const lifecycle = { draining: false, inFlight: 0 };
  // The one way to wake the outbox worker: services call it after a commit that queued texts or email.
  const wakeOutbox = () => outbox.kick();
  // What most services take: the database, the clock, the log, the public address and the outbox's wake-up.
  const serviceContext = {
    db: database.db,
    clock,
    logger: app.log,
    publicUrl: config.publicUrl,
    onOutboxWrite: wakeOutbox,
  };
  const openingsService = createOpeningsService({
    ...serviceContext,
    readOnlyReason,
    users: owners,
    customers: openingCustomers,
    enqueueSms,
    enqueueSmsMany,
    notifyOwner,
  });
  const dashboardService = createDashboardService({
    db: database.db,
    clock,
    users: summaryUsers,
    sources: dashboardSources,
  });
  const weeklySummaryWorker = createWeeklySummaryWorker({
    weeklySummary: createWeeklySummary({
      ...serviceContext,
      owners: summaryUsers,
      period: dashboardService.period,
    }),
    logger: app.log,
  });
  const openingsWorker = createOpeningsWorker({ openingsService, logger: app.log });
  const messagingService = createMessagingService({
    ...serviceContext,
    sms,
    customers: textingCustomers,
    numbers: businessNumbers,
    // features/openings reads every reply that is not a keyword: a claim takes the slot, free text reaches the
    // owner with one automatic answer (issue 15). Without a handler a reply is only stored.
    handlers: {
      onCustomerReply: openingsService.onCustomerReply,
      quietReply: openingsService.quietReply,
      autoAnswer: openingsService.autoAnswer,
      // features/waitlist: JOIN from a new number, and the YES that confirms it (issue 15).
      onStranger: (input) => joinService.onStranger(input),
    },
  });
  const waitlistService = createWaitlistService({
    ...serviceContext,
    readOnlyReason,
    users: owners,
    texts: messagingService,
  });
  const limiter = createRateLimiter({
    db: database.db,
    redisUrl: config.redisUrl,
    points: { registerIp: config.signupLimitPerHour },
    logger: app.log,
  });
  // The join page's proof-of-work key (issue 24): configured, else derived from the stored VAPID private key
  // (generated once and kept in the database, shared by every instance), under a label of its own.
  const altchaKey = async () =>
    config.altcha.hmacKey ??
    createHmac('sha256', (await vapidKeys()).privateKey)
      .update('waitlist join altcha key')
      .digest('hex');
  const joinService = createJoinService({
    ...serviceContext,
    limiter,
    owners: joinOwners,
    readOnlyReason,
    enqueueSms,
    optOuts: messagingService,
    proof: createJoinProof({ hmacKey: altchaKey, cost: config.altcha.cost, useNonce }),
  });
  const inboxService = createInboxService({
    db: database.db,
    texts: messagingService,
    offersOfCustomer: inboxOffers,
    sendText: waitlistService.sendText,
  });
  const billingProvider =
    options.billingProvider ??
    (await createBillingProvider(config.billing, {
      db: database.db,
      clock,
      logger: app.log,
      publicUrl: config.publicUrl,
    }));
  const billingService = createBillingService({
    ...serviceContext,
    provider: billingProvider,
    limiter,
    users: billingUsers,
  });
  const billingWorker = createBillingWorker({ billingService, logger: app.log });
  const authService = createAuthService({
    ...serviceContext,
    limiter,
    adminEmails: config.adminEmails,
    beforeAccountDeleted: (user) => billingService.closeAccount(user),
  });
  const adminService = createAdminService({ db: database.db, users: adminUsers });
  const socialAuthService = createSocialAuthService({
    db: database.db,
    clock,
    limiter,
    identity: options.identityProviders ?? createIdentityProviders(config.social, { clock }),
    adminEmails: config.adminEmails,
    logger: app.log,
  });
  const localBilling = isLocalBillingProvider(billingProvider) ? billingProvider : undefined;
  const authenticate = createAuthenticate(authService);
  const toolsGuard =
    config.localTools === 'closed' ? undefined : localToolsGuard(config.localTools, authenticate);
  app.decorate('outbox', outbox);
  app.decorate('billingWorker', billingWorker);
  app.decorate('openingsWorker', openingsWorker);
  app.decorate('weeklySummaryWorker', weeklySummaryWorker);
  app.decorate('metrics', metrics);
  app.decorate('lifecycle', lifecycle);
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
    admin: adminService,
    auth: authService,
    socialAuth: socialAuthService,
    email,
    billing: billingService,
    messaging: messagingService,
    sms,
    waitlist: waitlistService,
    openings: openingsService,
    dashboard: dashboardService,
  });
  app.decorateRequest('session', null);
  app.addHook('onClose', async () => {
    logs?.stop();
    await billingWorker.stop();
    await openingsWorker.stop();
    await weeklySummaryWorker.stop();
    await outbox.stop();
    await limiter.close();
    await email.close();
  });

  // Each configured sign-in provider adds the origins its browser SDK needs, and only those.
  const social = socialSignInCspSources(config.social);
  // Stripe Elements (issue 4) loads from js.stripe.com, frames 3-D Secure and talks to api.stripe.com.
  const stripeCsp = billingProvider.name === 'stripe';
  // helmet's headers, computed once at start (plugins/security-headers.ts).
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

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Waitlist & Text API',
        version: '1.0.0',
        description: 'Accounts, onboarding and the waitlist. Every answer carries `success`.',
      },
      servers: [{ url: '/' }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(apiDocsRoutes);

  await app.register(
    async (api) => {
      await api.register(systemRoutes, {
        config,
        db: database.db,
        lifecycle,
        billing: {
          provider: billingProvider.name,
          publishableKey: billingProvider.publishableKey,
          configured: billingProvider.configured,
        },
      });
      await api.register(authRoutes, { authService, authenticate });
      await api.register(socialAuthRoutes, { socialAuthService });
      await api.register(usersRoutes, { authService, authenticate });
      await api.register(pushRoutes, { pushService, authenticate });
      await api.register(adminRoutes, { adminService, authenticate });
      await api.register(billingRoutes, { billingService, authenticate });
      await api.register(notificationsRoutes, { billingService, authenticate });
      if (config.billing.provider === 'stripe') {
        // Its own plugin context: it keeps request bodies raw, as the signature check needs.
        const { stripeWebhookRoutes } = await import('./features/billing/stripe-webhooks.routes.ts');
        await api.register(stripeWebhookRoutes, {
          provider: billingProvider,
          webhookSecret: config.billing.webhookSecret ?? null,
          billingService,
          db: database.db,
          clock,
        });
      }
      await api.register(waitlistRoutes, { waitlistService, authenticate });
      await api.register(inboxRoutes, { inboxService, authenticate });
      await api.register(joinRoutes, { joinService, authenticate });
      await api.register(openingsRoutes, { openingsService, authenticate });
      await api.register(dashboardRoutes, { dashboardService, authenticate });
      await api.register(phoneNumberRoutes, { messagingService, authenticate });
      // Its own plugin context: it keeps request bodies raw, as the signature check needs.
      await api.register(plivoWebhookRoutes, {
        messagingService,
        authToken: config.sms.provider === 'plivo' ? config.sms.authToken : null,
        publicUrl: config.publicUrl,
        db: database.db,
        clock,
      });
      if (localBilling) {
        await api.register(localBillingRoutes, {
          billingService,
          billingWorker,
          provider: localBilling,
          authenticate,
          toolsGuard,
        });
      }
    },
    { prefix: API_PREFIX },
  );

  // The local tools: anyone on a loopback HOST, admins with LOCAL_TOOLS=admin, nobody otherwise.
  if (toolsGuard) {
    await app.register(async (tools) => {
      tools.addHook('onRequest', toolsGuard);
      if (email.name === 'local') await tools.register(devMailboxRoutes, { db: database.db });
      if (sms.name === 'local') {
        await tools.register(devPhoneRoutes, {
          messagingService,
          afterReply: () => outbox.drain(),
        });
      }
    });
  }
  if (localBilling) {
    await app.register(localBillingPages, {
      billingService,
      provider: localBilling,
      publicUrl: config.publicUrl,
    });
  }

  const indexHtml = config.webDistDir && join(config.webDistDir, 'index.html');
  if (config.webDistDir && indexHtml && existsSync(indexHtml)) {
    // Vite names every file under assets/ by its content hash: a changed file is a new name, so browsers
    // keep them for a year. index.html names the current ones and is never cached. The build writes .br
    // and .gz beside each file; the one the browser accepts is sent (issue 16).
    await app.register(fastifyStatic, {
      root: config.webDistDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders: (reply, path) => {
        reply.header('cache-control', webCacheControl(path));
      },
    });
  }

  // Unknown API paths get JSON; any other GET gets the SPA, whose router shows its own 404 (history fallback).
  app.setNotFoundHandler((request, reply) => {
    const isPage =
      request.method === 'GET' && !request.url.startsWith('/api/') && indexHtml && existsSync(indexHtml);
    // The app either way (its router draws the 404 page), but an address that is no page says 404.
    if (isPage)
      return reply
        .status(isWebPage(request.url.split('?')[0] ?? '') ? 200 : 404)
        .type('text/html')
        .sendFile('index.html');
    return reply.status(404).send({ success: false, message: authMessages.notFound });
  });

  return app;
}
