import type { Pricing, Subscription } from '@waitlist/contract';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { BillingProvider } from './index.ts';
import { createLocalBillingContext, localClockControls } from './local-billing-clock.ts';
import { localPrices } from './local-billing-math.ts';
import type { TestCardInput } from './local-cards.ts';
import { type CheckoutSessionView, localCheckoutCalls } from './local-checkout.ts';
import { localCustomerCalls } from './local-customers.ts';
import { localPaymentMethodCalls } from './local-payment-methods.ts';
import { localPlanPreviewCalls } from './local-plan-preview.ts';
import { type InvoiceDocument, localPortalCalls, type PortalView } from './local-portal.ts';
import { localSubscriptionCalls } from './local-subscription-calls.ts';
import type { PeriodEndOutcome } from './local-subscriptions.ts';

export type { CheckoutSessionView, InvoiceDocument, PeriodEndOutcome, PortalView };

export interface LocalBillingProvider extends BillingProvider {
  readonly name: 'local';
  /** The billing clock: the injected clock plus the offset `advanceClock` moved it by. */
  now(): Promise<Date>;
  clockOffsetMs(): Promise<number>;
  advanceClock(ms: number): Promise<Date>;
  /** Puts the billing clock back on the real time (demos and test suites that moved it). */
  resetClock(): Promise<Date>;
  /** Applies every period end due by the billing clock: renewals, scheduled changes, cancellations. */
  applyDuePeriodEnds(): Promise<PeriodEndOutcome[]>;
  /** The role Stripe.js's confirmCardSetup plays: checks a test card and attaches it to the customer. */
  confirmSetupIntent(
    customerId: string,
    clientSecret: string,
    card: TestCardInput,
  ): Promise<{ paymentMethodId: string }>;
  findCheckoutSession(id: string): Promise<CheckoutSessionView | undefined>;
  /** Pays a checkout with a test card: the card becomes the default and the plan starts (or changes). */
  completeCheckout(
    id: string,
    card: TestCardInput,
  ): Promise<{ customerId: string; subscription: Subscription | null; redirectUrl: string }>;
  findPortal(id: string): Promise<PortalView | undefined>;
  findInvoiceDocument(id: string): Promise<InvoiceDocument | undefined>;
}

export function isLocalBillingProvider(provider: BillingProvider): provider is LocalBillingProvider {
  return provider.name === 'local';
}

/**
 * Test-card billing stored in our database, composed by concern: the customer (local-customers.ts), cards
 * (local-payment-methods.ts), the subscription (local-subscription-calls.ts, rules in local-subscriptions.ts),
 * the hosted checkout (local-checkout.ts) and portal (local-portal.ts), and the billing clock.
 */
export function createLocalBillingProvider(deps: {
  db: Database;
  clock: Clock;
  publicUrl: string;
}): LocalBillingProvider {
  const ctx = createLocalBillingContext(deps);
  return {
    name: 'local',
    configured: true,
    publishableKey: null,

    async getPricing(): Promise<Pricing> {
      return localPrices();
    },

    ...localCustomerCalls(ctx),
    ...localPaymentMethodCalls(ctx),
    ...localSubscriptionCalls(ctx),
    ...localPlanPreviewCalls(ctx),
    ...localCheckoutCalls(ctx),
    ...localPortalCalls(ctx),
    // ---- local only ----
    ...localClockControls(ctx),
  };
}
