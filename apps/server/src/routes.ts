import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import { authMessages, isWebPage } from '@waitlist/contract';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Services } from './composition.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { adminRoutes } from './features/admin/admin.routes.ts';
import { authRoutes } from './features/auth/auth.routes.ts';
import { socialAuthRoutes } from './features/auth/social.routes.ts';
import { billingRoutes } from './features/billing/billing.routes.ts';
import { localBillingPages } from './features/billing/local-billing.pages.ts';
import { localBillingRoutes } from './features/billing/local-billing.routes.ts';
import { notificationsRoutes } from './features/billing/notifications.routes.ts';
import { calendarRoutes } from './features/calendar/calendar.routes.ts';
import { calendarPushRoutes } from './features/calendar/calendar-push.routes.ts';
import { dashboardRoutes } from './features/dashboard/dashboard.routes.ts';
import { devMailboxRoutes } from './features/dev/dev.routes.ts';
import { localCalendarRoutes } from './features/dev/local-calendar.routes.ts';
import { devPhoneRoutes } from './features/dev/phone.routes.ts';
import { apiDocsRoutes } from './features/docs/api-docs.routes.ts';
import { phoneNumberRoutes } from './features/messaging/messaging.routes.ts';
import { plivoWebhookRoutes } from './features/messaging/plivo-webhooks.routes.ts';
import { openingsRoutes } from './features/openings/openings.routes.ts';
import { pushRoutes } from './features/push/push.routes.ts';
import { servicesRoutes } from './features/services/services.routes.ts';
import { systemRoutes } from './features/system/system.routes.ts';
import { usersRoutes } from './features/users/users.routes.ts';
import { inboxRoutes } from './features/waitlist/inbox.routes.ts';
import { joinRoutes } from './features/waitlist/join.routes.ts';
import { waitlistRoutes } from './features/waitlist/waitlist.routes.ts';
import type { Clock } from './lib/clock.ts';
import { createAuthenticate } from './plugins/authenticate.ts';
import { localToolsGuard } from './plugins/local-tools.ts';
import { isLocalBillingProvider } from './providers/billing/local.ts';
import { localCalendarBusinesses } from './wiring.ts';

export const API_PREFIX = '/api/v1';

/** Hashed build assets are immutable; everything else the web app serves (index.html first) is revalidated. */
export function webCacheControl(path: string): string {
  return /[\\/]assets[\\/]/.test(path)
    ? 'public, max-age=31536000, immutable'
    : 'no-cache, no-store, must-revalidate';
}

/**
 * Headers that only a document (or a worker) acts on. A hashed script or stylesheet under assets/ is neither
 * (the service worker is served from the root), so they are left off it: on a cold first visit they were a
 * kilobyte per file, as much as the smaller files themselves (issue 40). HSTS, nosniff, CORP and the
 * referrer policy stay on every answer.
 */
export const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
] as const;

const isHashedSubresource = (path: string) => /[\\/]assets[\\/][^\\/]+\.(js|css)(\.br|\.gz)?$/.test(path);

/** What the route plugins are given: the config, the database, the clock, the services and the lifecycle. */
export interface RouteContext {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  services: Services;
  lifecycle: { draining: boolean; inFlight: number };
}

/** The guards the routes share, and the local billing provider when it is the one configured. */
function guardsOf({ config, services }: RouteContext) {
  const localBilling = isLocalBillingProvider(services.billingProvider)
    ? services.billingProvider
    : undefined;
  const authenticate = createAuthenticate(services.authService);
  const toolsGuard =
    config.localTools === 'closed' ? undefined : localToolsGuard(config.localTools, authenticate);
  return { localBilling, authenticate, toolsGuard };
}
type Guards = ReturnType<typeof guardsOf>;

/** Registers every route: the API docs, the API, the local tools and pages, and the web app. */
export async function registerRoutes(app: FastifyInstance, context: RouteContext) {
  const guards = guardsOf(context);
  await registerApiDocs(app);
  await app.register(async (api) => registerApi(api, context, guards), { prefix: API_PREFIX });
  await registerLocalTools(app, context, guards);
  await registerWebApp(app, context.config);
}

async function registerApiDocs(app: FastifyInstance) {
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
}

/** The API's routes, under API_PREFIX. */
async function registerApi(api: FastifyInstance, context: RouteContext, guards: Guards) {
  const { config, database, clock, services, lifecycle } = context;
  const { authService, billingProvider, billingService, messagingService, conversation } = services;
  const { authenticate, localBilling, toolsGuard } = guards;
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
  await api.register(socialAuthRoutes, { socialAuthService: services.socialAuthService });
  await api.register(usersRoutes, { authService, authenticate });
  await api.register(pushRoutes, { pushService: services.pushService, authenticate });
  await api.register(adminRoutes, { adminService: services.adminService, authenticate });
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
  await api.register(waitlistRoutes, { waitlistService: services.waitlistService, authenticate });
  await api.register(inboxRoutes, { inboxService: services.inboxService, authenticate });
  await api.register(joinRoutes, { joinService: services.joinService, authenticate });
  await api.register(openingsRoutes, { openingsService: services.openingsService, authenticate });
  await api.register(servicesRoutes, { servicesService: services.servicesService, authenticate });
  await api.register(calendarRoutes, {
    calendarService: services.calendarService,
    proposals: services.proposals,
    authenticate,
  });
  // Its own plugin context: Google's bodiless pushes and Graph's text handshake are read as sent.
  await api.register(calendarPushRoutes, {
    push: services.calendarService.push,
    limiter: services.limiter,
    kick: () => services.calendarWorker.kick(),
  });
  await api.register(dashboardRoutes, { dashboardService: services.dashboardService, authenticate });
  await api.register(phoneNumberRoutes, { messagingService, authenticate });
  // Its own plugin context: it keeps request bodies raw, as the signature check needs.
  await api.register(plivoWebhookRoutes, {
    messagingService,
    receiveInbound: (text) => conversation.receiveInbound(text),
    authToken: config.sms.provider === 'plivo' ? config.sms.authToken : null,
    publicUrl: config.publicUrl,
    db: database.db,
    clock,
  });
  if (localBilling) {
    await api.register(localBillingRoutes, {
      billingService,
      billingWorker: services.billingWorker,
      provider: localBilling,
      authenticate,
      toolsGuard,
    });
  }
}

/** The local tools (mailbox, phone) and the local billing provider's pages. */
async function registerLocalTools(
  app: FastifyInstance,
  { config, database, clock, services }: RouteContext,
  guards: Guards,
) {
  const { email, sms, messagingService, conversation, outbox, billingService } = services;
  const { toolsGuard, localBilling } = guards;
  // The local tools: anyone on a loopback HOST, admins with LOCAL_TOOLS=admin, nobody otherwise.
  if (toolsGuard) {
    await app.register(async (tools) => {
      tools.addHook('onRequest', toolsGuard);
      if (email.name === 'local') await tools.register(devMailboxRoutes, { db: database.db });
      if (sms.name === 'local') {
        await tools.register(devPhoneRoutes, {
          messagingService,
          receiveInbound: (text) => conversation.receiveInbound(text),
          afterReply: () => outbox.drain(),
        });
      }
      // The local calendar (issue 29), whatever the providers: served as CalDAV, edited at /dev/calendar.
      await tools.register(localCalendarRoutes, {
        db: database.db,
        clock,
        businesses: localCalendarBusinesses(database.db),
      });
    });
  }
  if (localBilling) {
    await app.register(localBillingPages, {
      billingService,
      provider: localBilling,
      publicUrl: config.publicUrl,
    });
  }
}

/** The built web app (WEB_DIST_DIR) and the answer to every address no route took. */
async function registerWebApp(app: FastifyInstance, config: Config) {
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
        if (isHashedSubresource(path)) for (const name of DOCUMENT_ONLY_HEADERS) reply.removeHeader(name);
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
}
