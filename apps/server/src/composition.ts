import { createHmac, hkdfSync } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { BuildAppOptions } from './app.ts';
import { createAdminService } from './features/admin/admin.service.ts';
import { createAuthService } from './features/auth/auth.service.ts';
import { createSocialAuthService } from './features/auth/social.service.ts';
import { createBillingService } from './features/billing/billing.service.ts';
import { createBillingWorker } from './features/billing/billing.worker.ts';
import { readOnlyReason } from './features/billing/billing-standing.ts';
import { createBookings } from './features/calendar/bookings.ts';
import { createCalendarService } from './features/calendar/calendar.service.ts';
import { createCalendarWorker } from './features/calendar/calendar.worker.ts';
import { createCalendarFetch } from './features/calendar/calendar-fetch.ts';
import { createIcsParser } from './features/calendar/ics-parser.ts';
import { googleAppOf } from './features/calendar/oauth-apps.ts';
import { createProposals } from './features/calendar/proposals.ts';
import { createConversation } from './features/conversation/conversation.service.ts';
import { createDashboardService } from './features/dashboard/dashboard.service.ts';
import { createWeeklySummary, createWeeklySummaryWorker } from './features/dashboard/weekly-summary.ts';
import { localCalendarFetch } from './features/dev/local-calendar.routes.ts';
import { createInboundTexts, createMessagingService } from './features/messaging/messaging.service.ts';
import { createSmsDelivery } from './features/messaging/sms-delivery.ts';
import { createTexting, senderRefusal } from './features/messaging/texting.ts';
import { createOpeningsService } from './features/openings/openings.service.ts';
import { createOpeningsWorker } from './features/openings/openings.worker.ts';
import {
  createPushDelivery,
  createPushService,
  loadVapidKeys,
  notifyOwner,
} from './features/push/push.service.ts';
import { createPushEndpoints } from './features/push/push-endpoint.ts';
import { createServicesService } from './features/services/services.service.ts';
import { createInboxService } from './features/waitlist/inbox.service.ts';
import { createJoinService } from './features/waitlist/join.service.ts';
import { createJoinProof } from './features/waitlist/join-proof.ts';
import { createWaitlistService } from './features/waitlist/waitlist.service.ts';
import type { Clock } from './lib/clock.ts';
import { createRateLimiter } from './lib/rate-limit.ts';
import { useNonce } from './nonces/index.ts';
import { createOutboxWorker, withJitter } from './outbox/index.ts';
import { createMetrics } from './plugins/metrics.ts';
import { createBillingProvider } from './providers/billing/index.ts';
import { createEmailProvider } from './providers/email/index.ts';
import { createIdentityProviders } from './providers/identity/index.ts';
import { createSmsProvider } from './providers/sms/index.ts';
import {
  adminUsers,
  billingUsers,
  businessNumbers,
  calendarBookingOf,
  calendarBookingWishes,
  conversationCustomers,
  dashboardSources,
  entryCatalog,
  inboxOffers,
  joinOwners,
  openingCatalog,
  openingCustomers,
  openingReplies,
  owners,
  proposalReads,
  pushUsers,
  summaryUsers,
  textingCustomers,
  verdictAnswer,
} from './wiring.ts';

/*
 * The wiring: every service receives its dependencies here, in one place. app.ts builds the Fastify instance
 * and calls composeServices once; routes.ts hands the services to the route plugins.
 */

/** What composing needs: the app's options, its clock (the system's unless a test brings one) and its log. */
interface Composition {
  options: BuildAppOptions;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** The app itself: the server reads its local calendar through its `inject`, without a network port. */
  self: Pick<FastifyInstance, 'inject'>;
}

/** What most services take: the database, the clock, the log, the public address and the outbox's wake-up. */
type ServiceContext = ReturnType<typeof serviceContextOf>;

export type Services = Awaited<ReturnType<typeof composeServices>>;

/** Builds every provider, worker and service of the app from its config and the providers it was given. */
export async function composeServices(composition: Composition) {
  const delivery = createDelivery(composition);
  const context = serviceContextOf(composition, delivery.outbox);
  const customerTexting = createCustomerTexting(composition, context, delivery);
  const dashboard = createDashboard(composition, context);
  const accounts = await createAccounts(composition, context, customerTexting.limiter);
  // A business's services, staff and offer rules (issue 26).
  const servicesService = createServicesService({ ...context, readOnlyReason, users: owners });
  const calendars = createCalendars(composition, context, customerTexting, delivery.vapidKeys);
  return { ...delivery, ...customerTexting, ...dashboard, ...accounts, servicesService, ...calendars };
}

/**
 * Connected calendars (issue 29): their cancellations proposed to the owner or opened by themselves, and the
 * worker that reads them. Secrets are sealed with CALENDAR_ENCRYPTION_KEY, else a key derived (HKDF) from the
 * stored VAPID private key under a label of its own.
 */
function createCalendars(
  { options, logger, self }: Composition,
  context: ServiceContext,
  texting: Pick<ReturnType<typeof createCustomerTexting>, 'openingsService' | 'limiter'>,
  vapidKeys: ReturnType<typeof createDelivery>['vapidKeys'],
) {
  const { config } = options;
  let derived: Uint8Array | undefined;
  const sealKey = async () => {
    if (config.calendar.encryptionKey) return config.calendar.encryptionKey;
    derived ??= new Uint8Array(
      hkdfSync('sha256', (await vapidKeys()).privateKey, 'waitlist', 'calendar secrets', 32),
    );
    return derived;
  };
  const { google, microsoft } = config.calendar;
  // The kinds offered: Google and Microsoft when configured, CalDAV and ICS always, the local calendar here.
  const oauth = [...(google ? (['google'] as const) : []), ...(microsoft ? (['microsoft'] as const) : [])];
  // Feeds and CalDAV events are parsed on worker threads under a time limit, never on this event loop (issue 38).
  const parser = createIcsParser(options.calendarParse);
  const calendarService = createCalendarService({
    ...context,
    ...(google ? { google } : {}),
    ...(microsoft ? { microsoft } : {}),
    limiter: texting.limiter,
    sealKey,
    fetch: createCalendarFetch({ allowPrivate: config.calendar.allowPrivateAddresses }),
    parser,
    pushUrl: config.calendar.pushUrl,
    // The local calendar (/dev/calendar) is there wherever the local tools are: read through `inject`.
    ...(config.localTools === 'closed'
      ? { available: [...oauth, 'caldav', 'ics'] as const }
      : {
          available: [...oauth, 'caldav', 'ics', 'local'] as const,
          local: {
            url: (userId: string) => `http://localhost/dev/calendar/dav/${userId}/`,
            fetch: localCalendarFetch(self),
          },
        }),
    users: owners,
    catalog: entryCatalog,
    openSlotIn: texting.openingsService.openIn,
    notifyOwner,
  });
  const proposals = createProposals({ ...context, ...proposalReads, openings: texting.openingsService });
  const bookings = createBookings({
    ...context,
    sealKey,
    ...(google ? { google: googleAppOf({ google, publicUrl: context.publicUrl }) } : {}),
    ...(microsoft ? { microsoft: calendarService.microsoftApp } : {}),
    sourceOf: calendarService.sourceOf,
    bookingOf: calendarBookingOf,
  });
  const worker = createCalendarWorker({ calendarService, proposals, bookings, logger });
  // The parser's threads end with the worker (the app's close), so nothing holds the process open.
  const calendarWorker = {
    ...worker,
    stop: async () => {
      await worker.stop();
      await parser.close();
    },
  };
  return { calendarService, proposals, calendarWorker };
}

/** Email, texts and pushes, and the outbox worker that delivers them, with the metrics that watch it. */
function createDelivery({ options, clock, logger }: Composition) {
  const { config, database } = options;
  const email =
    options.emailProvider ??
    createEmailProvider(config.email, {
      db: database.db,
      logger,
      // Codes and reset links reach the log only for the person at the machine (loopback HOST).
      logSecrets: config.localTools === 'anyone',
    });
  const sms =
    options.smsProvider ??
    createSmsProvider(config.sms, {
      db: database.db,
      logger,
      publicUrl: config.publicUrl,
      logTexts: config.localTools === 'anyone',
    });
  const smsDelivery = createSmsDelivery({
    db: database.db,
    sms,
    clock,
    logger,
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
    logger,
  });
  const outbox = createOutboxWorker({
    db: database.db,
    email,
    sms: smsDelivery,
    push: pushDelivery,
    clock,
    logger,
    onDelivery: metrics.outboxDelivery,
    jitter: options.retryJitter ?? ((delayMs) => withJitter(delayMs)),
  });
  metrics.attach(outbox);
  return { email, sms, vapidKeys, metrics, pushService, outbox };
}

function serviceContextOf({ options, clock, logger }: Composition, outbox: { kick(): void }) {
  // The one way to wake the outbox worker: services call it after a commit that queued texts or email.
  const wakeOutbox = () => outbox.kick();
  return {
    db: options.database.db,
    clock,
    logger,
    publicUrl: options.config.publicUrl,
    onOutboxWrite: wakeOutbox,
  };
}

/**
 * What texts customers and reads their texts: openings and their alerts, messaging, a customer's text from
 * the webhook to the commit, the waitlist, the join page and the inbox; and the rate limiter they share
 * with the accounts.
 */
function createCustomerTexting(
  { options, logger }: Composition,
  serviceContext: ServiceContext,
  { sms, vapidKeys }: Pick<ReturnType<typeof createDelivery>, 'sms' | 'vapidKeys'>,
) {
  const { config, database } = options;
  // Texting is built once: every feature that queues texts gets these (decision 0013).
  const texting = createTexting(textingCustomers, businessNumbers, logger);
  const openingsService = createOpeningsService({
    ...serviceContext,
    readOnlyReason,
    users: owners,
    customers: openingCustomers,
    catalog: openingCatalog,
    replies: openingReplies,
    senderRefusal,
    enqueueSms: texting.enqueueSms,
    enqueueSmsMany: texting.enqueueSmsMany,
    notifyOwner,
    calendarBookings: calendarBookingWishes,
  });
  const openingsWorker = createOpeningsWorker({ openingsService, logger });
  const messagingService = createMessagingService({
    ...serviceContext,
    sms,
    texting,
    numbers: businessNumbers,
  });
  // A customer's text, from the webhook to the commit (features/conversation): stored by messaging, decided by
  // the reply policy, a claim made by openings, JOIN and its YES from new numbers by waitlist (issue 15).
  const conversation = createConversation({
    ...serviceContext,
    texts: createInboundTexts(database.db, texting, verdictAnswer),
    claims: openingsService.claims,
    customers: conversationCustomers,
    notifyOwner,
    onStranger: (input) => joinService.onStranger(input),
  });
  const waitlistService = createWaitlistService({
    ...serviceContext,
    readOnlyReason,
    users: owners,
    texts: messagingService,
    catalog: entryCatalog,
  });
  const limiter = createRateLimiter({
    db: database.db,
    redisUrl: config.redisUrl,
    points: { registerIp: config.signupLimitPerHour },
    logger,
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
    enqueueSms: texting.enqueueSms,
    optOuts: messagingService,
    proof: createJoinProof({ hmacKey: altchaKey, cost: config.altcha.cost, useNonce }),
    catalog: entryCatalog,
  });
  const inboxService = createInboxService({
    db: database.db,
    texts: messagingService,
    offersOfCustomer: inboxOffers,
    sendText: waitlistService.sendText,
  });
  return {
    openingsService,
    openingsWorker,
    messagingService,
    conversation,
    waitlistService,
    joinService,
    inboxService,
    limiter,
  };
}

/** The owner's dashboard, and the weekly summary email drawn from it. */
function createDashboard({ options, clock, logger }: Composition, serviceContext: ServiceContext) {
  const dashboardService = createDashboardService({
    db: options.database.db,
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
    logger,
  });
  return { dashboardService, weeklySummaryWorker };
}

/** Accounts: billing (its provider chosen by config), sign-in with a password or a provider, and admin. */
async function createAccounts(
  { options, clock, logger }: Composition,
  serviceContext: ServiceContext,
  limiter: ReturnType<typeof createRateLimiter>,
) {
  const { config, database } = options;
  const billingProvider =
    options.billingProvider ??
    (await createBillingProvider(config.billing, {
      db: database.db,
      clock,
      logger,
      publicUrl: config.publicUrl,
    }));
  const billingService = createBillingService({
    ...serviceContext,
    provider: billingProvider,
    limiter,
    users: billingUsers,
  });
  const billingWorker = createBillingWorker({ billingService, logger });
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
    logger,
  });
  return { billingProvider, billingService, billingWorker, authService, adminService, socialAuthService };
}
