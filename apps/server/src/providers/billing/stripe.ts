import { type Clock, systemClock } from '../../lib/clock.ts';
import type { BillingProvider } from './index.ts';
import { stripeCardCalls } from './stripe-cards.ts';
import { createStripeClient, type StripeContext } from './stripe-client.ts';
import { stripeCustomerCalls } from './stripe-customers.ts';
import { changePlan } from './stripe-plan-change.ts';
import { previewPlanChange } from './stripe-plan-preview.ts';
import { createStripePrices, type PriceIds } from './stripe-prices.ts';
import { stripeSubscriptionCalls } from './stripe-subscriptions.ts';

/**
 * Accepts the brief's shape (null for a missing key) and config.billing's (undefined), plus the shared
 * provider deps (db, logger… are ignored: Stripe keeps its own state).
 */
export interface StripeProviderOptions {
  secretKey: string;
  publishableKey: string | null | undefined;
  webhookSecret?: string | null | undefined;
  /** STRIPE_API_URL: another host for the SDK (contract tests point it at a local fake). */
  apiUrl?: string | undefined;
  prices: { STARTER: PriceIds; GROWTH: PriceIds };
  publicUrl: string;
  clock?: Clock;
  /** SDK network retries (409, 5xx, connection errors), replayed under the same idempotency key. */
  maxNetworkRetries?: number;
}

/**
 * Stripe through the official SDK. Stripe is the source of truth: every answer is read back from Stripe
 * and mapped to the contract (Unix seconds, cents). Upgrades are charged now with Stripe's own proration
 * (`always_invoice`); downgrades wait for the period end in a subscription schedule, shown as
 * `pending_change`. Every call that can charge or create a billable object carries an idempotency key
 * derived from the caller's key, so a retried or double-submitted change is applied once.
 *
 * The calls are grouped by concern: customers, invoices and hosted pages (stripe-customers.ts), cards
 * (stripe-cards.ts), the subscription (stripe-subscriptions.ts) and plan changes (stripe-plan-change.ts).
 */
export function createStripeBillingProvider(options: StripeProviderOptions): BillingProvider {
  const clock = options.clock ?? systemClock;
  const stripe = createStripeClient(options);
  const prices = createStripePrices(stripe, options.prices, clock);
  const ctx: StripeContext = { stripe, clock, prices, publicUrl: options.publicUrl };
  const publishableKey = options.publishableKey || null;

  return {
    name: 'stripe',
    // Without the publishable key the card form (Stripe Elements) cannot run; without a price, that plan can't be sold.
    configured: Boolean(publishableKey) && prices.allConfigured,
    publishableKey,
    getPricing: () => prices.getPricing(),
    ...stripeCustomerCalls(ctx),
    ...stripeCardCalls(ctx),
    ...stripeSubscriptionCalls(ctx),
    changePlan: (customerId, change, idempotencyKey) => changePlan(ctx, customerId, change, idempotencyKey),
    previewPlanChange: (customerId, change) => previewPlanChange(ctx, customerId, change),
  };
}
