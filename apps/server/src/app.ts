import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import apiReference from '@scalar/fastify-api-reference';
import { authMessages } from '@waitlist/contract';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
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
import { devMailboxRoutes } from './features/dev/dev.routes.ts';
import { devPhoneRoutes } from './features/dev/phone.routes.ts';
import { phoneNumberRoutes } from './features/messaging/messaging.routes.ts';
import { createMessagingService, type MessagingService } from './features/messaging/messaging.service.ts';
import { plivoWebhookRoutes } from './features/messaging/plivo-webhooks.routes.ts';
import { createSmsDelivery } from './features/messaging/sms-delivery.ts';
import { openingsRoutes } from './features/openings/openings.routes.ts';
import { createOpeningsService, type OpeningsService } from './features/openings/openings.service.ts';
import { createOpeningsWorker, type OpeningsWorker } from './features/openings/openings.worker.ts';
import { createOutboxWorker, type OutboxWorker } from './features/outbox/outbox.worker.ts';
import { systemRoutes } from './features/system/system.routes.ts';
import { usersRoutes } from './features/users/users.routes.ts';
import { waitlistRoutes } from './features/waitlist/waitlist.routes.ts';
import { createWaitlistService, type WaitlistService } from './features/waitlist/waitlist.service.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { createRateLimiter } from './lib/rate-limit.ts';
import { createAuthenticate } from './plugins/authenticate.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';
import { localToolsGuard } from './plugins/local-tools.ts';
import { registerStorableTextRule } from './plugins/storable-text.ts';
import { type BillingProvider, createBillingProvider } from './providers/billing/index.ts';
import { isLocalBillingProvider } from './providers/billing/local.ts';
import { createEmailProvider, type EmailProvider } from './providers/email/index.ts';
import { socialSignInCspSources } from './providers/identity/csp.ts';
import { createIdentityProviders, type IdentityProviders } from './providers/identity/index.ts';
import { createSmsProvider, type SmsProvider } from './providers/sms/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    outbox: OutboxWorker;
    billingWorker: BillingWorker;
    openingsWorker: OpeningsWorker;
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
}

export const API_PREFIX = '/api/v1';

/** TRUST_PROXY as a hop count: believe that many proxies, counted from the server's own peer. */
const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/** Builds the whole application without listening, so tests drive it with `app.inject()`. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const clock = options.clock ?? systemClock;
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel },
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    },
    bodyLimit: 100 * 1024,
    forceCloseConnections: 'idle',
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
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

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
  const outbox = createOutboxWorker({ db: database.db, email, sms: smsDelivery, clock, logger: app.log });
  const waitlistService = createWaitlistService({
    db: database.db,
    clock,
    onOutboxWrite: () => outbox.kick(),
  });
  const openingsService = createOpeningsService({
    db: database.db,
    clock,
    logger: app.log,
    publicUrl: config.publicUrl,
    onOutboxWrite: () => outbox.kick(),
  });
  const dashboardService = createDashboardService({ db: database.db, clock });
  const openingsWorker = createOpeningsWorker({ openingsService, logger: app.log });
  const messagingService = createMessagingService({
    db: database.db,
    clock,
    sms,
    logger: app.log,
    publicUrl: config.publicUrl,
    onOutboxWrite: () => outbox.kick(),
    // features/openings provides onCustomerReply (YES → claim); without it a plain reply is only stored.
    handlers: { onCustomerReply: openingsService.onCustomerReply },
  });
  const limiter = createRateLimiter({
    db: database.db,
    redisUrl: config.redisUrl,
    points: { registerIp: config.signupLimitPerHour },
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
    db: database.db,
    clock,
    provider: billingProvider,
    limiter,
    logger: app.log,
    onOutboxWrite: () => outbox.kick(),
    publicUrl: config.publicUrl,
  });
  const billingWorker = createBillingWorker({ billingService, logger: app.log });
  const authService = createAuthService({
    db: database.db,
    clock,
    limiter,
    onOutboxWrite: () => outbox.kick(),
    publicUrl: config.publicUrl,
    adminEmails: config.adminEmails,
    beforeAccountDeleted: (user) => billingService.closeAccount(user),
  });
  const adminService = createAdminService({ db: database.db });
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
    await billingWorker.stop();
    await openingsWorker.stop();
    await outbox.stop();
    await limiter.close();
    await email.close();
  });

  // Each configured sign-in provider adds the origins its browser SDK needs, and only those.
  const social = socialSignInCspSources(config.social);
  // Stripe Elements (issue 4) loads from js.stripe.com, frames 3-D Secure and talks to api.stripe.com.
  const stripeCsp = billingProvider.name === 'stripe';
  await app.register(helmet, {
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
  await app.register(apiReference, { routePrefix: '/api/docs' });

  await app.register(
    async (api) => {
      await api.register(systemRoutes, {
        config,
        db: database.db,
        databaseKind: database.kind,
        billing: {
          provider: billingProvider.name,
          publishableKey: billingProvider.publishableKey,
          configured: billingProvider.configured,
        },
      });
      await api.register(authRoutes, { authService, authenticate: authenticate as never });
      await api.register(socialAuthRoutes, { socialAuthService });
      await api.register(usersRoutes, { authService, authenticate: authenticate as never });
      await api.register(adminRoutes, { adminService, authenticate: authenticate as never });
      await api.register(billingRoutes, { billingService, authenticate: authenticate as never });
      await api.register(notificationsRoutes, { billingService, authenticate: authenticate as never });
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
      await api.register(waitlistRoutes, { waitlistService, authenticate: authenticate as never });
      await api.register(openingsRoutes, { openingsService, authenticate: authenticate as never });
      await api.register(dashboardRoutes, { dashboardService, authenticate: authenticate as never });
      await api.register(phoneNumberRoutes, { messagingService, authenticate: authenticate as never });
      // Its own plugin context: it keeps request bodies raw, as the signature check needs.
      await api.register(plivoWebhookRoutes, {
        messagingService,
        authToken: config.sms.provider === 'plivo' ? config.sms.authToken : null,
        publicUrl: config.publicUrl,
      });
      if (localBilling) {
        await api.register(localBillingRoutes, {
          billingService,
          billingWorker,
          provider: localBilling,
          authenticate: authenticate as never,
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
          db: database.db,
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
    await app.register(fastifyStatic, { root: config.webDistDir, wildcard: false, index: false });
  }

  // Unknown API paths get JSON; any other GET gets the SPA, whose router shows its own 404 (history fallback).
  app.setNotFoundHandler((request, reply) => {
    const isPage =
      request.method === 'GET' && !request.url.startsWith('/api/') && indexHtml && existsSync(indexHtml);
    if (isPage) return reply.type('text/html').sendFile('index.html');
    return reply.status(404).send({ success: false, message: authMessages.notFound });
  });

  return app;
}
