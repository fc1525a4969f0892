import { errorResponse, type Subscription } from '@waitlist/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import Stripe from 'stripe';
import { z } from 'zod';
import type { Database, Executor } from '../../db/client.ts';
import { type Clock, systemClock } from '../../lib/clock.ts';
import { AppError, BadRequest } from '../../lib/errors.ts';
import type { BillingProvider } from '../../providers/billing/index.ts';
import { recordWebhookEvent, webhookEventSeen } from './billing.repo.ts';

/** Stripe's default: a signature older than five minutes is refused (replay protection). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
const MAX_EVENT_BYTES = 1024 * 1024;

export const webhookMessages = {
  missingSignature: 'Missing Stripe-Signature header.',
  invalidSignature: (reason: string) => `Webhook signature verification failed: ${reason}`,
  notConfigured: 'Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET is not set).',
} as const;

/** Events that can change a customer's subscription; each one re-reads it from Stripe. */
const SUBSCRIPTION_EVENTS = new Set([
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.paused',
  'customer.subscription.resumed',
  'invoice.paid',
  'invoice.payment_failed',
  'checkout.session.completed',
]);
const handles = (type: string) => SUBSCRIPTION_EVENTS.has(type) || type.startsWith('subscription_schedule.');

/**
 * What the webhook needs from the billing service. `executor` is the open transaction that also records
 * the event id: the sync must run its queries through it (its own `executor.transaction()` becomes a
 * savepoint), so the sync and the record commit or roll back together. A sync that opened a transaction
 * on the database instead would wait forever on PGlite, whose single connection this transaction holds.
 */
export interface WebhookBillingService {
  findUserIdByCustomerId(customerId: string): Promise<string | null>;
  syncSubscription(
    customerId: string,
    subscription: Subscription | null,
    executor?: Executor,
  ): Promise<unknown>;
}

export interface StripeWebhookOptions {
  provider: Pick<BillingProvider, 'getSubscription'>;
  webhookSecret: string | null;
  billingService: WebhookBillingService;
  db: Database;
  clock?: Clock;
}

/**
 * POST /webhooks/stripe (under /api/v1). Verifies the signature on the raw body, then, for the events that
 * touch a subscription, re-reads the customer's subscription from Stripe (events may arrive late or out of
 * order; the current state is what counts) and syncs it in one transaction with the event id, so an event
 * delivered twice is applied once. Both deliveries answer 200, so Stripe stops retrying.
 */
export const stripeWebhookRoutes: FastifyPluginAsyncZod<StripeWebhookOptions> = async (app, options) => {
  const { provider, webhookSecret, billingService, db } = options;
  const clock = options.clock ?? systemClock;

  // The signature covers the exact bytes Stripe sent, so this plugin (only) keeps the body raw.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_EVENT_BYTES }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    '/webhooks/stripe',
    {
      bodyLimit: MAX_EVENT_BYTES,
      schema: {
        tags: ['billing'],
        summary: 'Stripe webhook endpoint (signed with STRIPE_WEBHOOK_SECRET)',
        response: {
          200: z.object({ received: z.literal(true), duplicate: z.boolean() }),
          400: errorResponse,
          503: errorResponse,
        },
      },
    },
    async (request) => {
      if (!webhookSecret) throw new AppError(503, webhookMessages.notConfigured);
      const signature = request.headers['stripe-signature'];
      if (typeof signature !== 'string' || signature.length === 0)
        throw new BadRequest(webhookMessages.missingSignature);
      const payload = Buffer.isBuffer(request.body) ? request.body : Buffer.from(String(request.body ?? ''));

      let event: Stripe.Event;
      try {
        event = Stripe.webhooks.constructEvent(
          payload,
          signature,
          webhookSecret,
          WEBHOOK_TOLERANCE_SECONDS,
          undefined,
          clock.now().getTime(),
        );
      } catch (error) {
        const reason = error instanceof Error ? error.message : 'invalid signature';
        throw new BadRequest(webhookMessages.invalidSignature(reason));
      }

      if (!handles(event.type)) return { received: true as const, duplicate: false };
      // A customer no user owns (e.g. the account was deleted, which deletes the Stripe customer) has nothing
      // to sync: answer 200 so Stripe stops retrying, without asking Stripe about a deleted customer.
      const eventCustomer = customerOf(event);
      const customerId =
        eventCustomer && (await billingService.findUserIdByCustomerId(eventCustomer)) ? eventCustomer : null;
      if (await webhookEventSeen(db, event.id)) return { received: true as const, duplicate: true };

      // Read from Stripe before the transaction: no transaction stays open during network I/O.
      const subscription = customerId ? await provider.getSubscription(customerId) : null;
      const applied = await db.transaction(async (tx) => {
        // A concurrent delivery of the same event committed first: it has applied the change.
        if (!(await recordWebhookEvent(tx, { id: event.id, type: event.type, receivedAt: clock.now() }))) {
          return false;
        }
        if (customerId) await billingService.syncSubscription(customerId, subscription, tx);
        return true;
      });
      request.log.info({ eventId: event.id, type: event.type, customerId, applied }, 'stripe webhook');
      return { received: true as const, duplicate: !applied };
    },
  );
};

function customerOf(event: Stripe.Event): string | null {
  const object = event.data.object as { customer?: string | { id: string } | null };
  const customer = object.customer;
  if (!customer) return null;
  return typeof customer === 'string' ? customer : customer.id;
}
