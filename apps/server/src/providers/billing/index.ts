import type { BillingPeriod, Invoice, PaymentMethod, Pricing, Subscription } from '@waitlist/contract';
import type { BillingConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Logger } from '../../lib/logger.ts';
import { createLocalBillingProvider } from './local.ts';

export { PaymentError } from './payment-error.ts';

/**
 * One billing interface, two implementations (DESIGN.md §2): Stripe through the official SDK, and the
 * local test-card billing stored in our database (the embedded default). The methods speak Stripe's
 * semantics, so the billing service holds the product rules once and both providers behave alike:
 *
 * - `changePlan` creates the subscription when there is none (trial → paid: full price now), charges the
 *   prorated difference now for a change to a more expensive price, and schedules a change to a cheaper
 *   price for the end of the period (`subscription.pending_change`).
 * - Every call that can create a charge takes an idempotency key; the same key never charges twice.
 * - Timestamps are Unix seconds, as in the API answers.
 */
export interface BillingProvider {
  readonly name: 'local' | 'stripe';
  /** False when the provider is chosen but incomplete (e.g. Stripe without price ids). */
  readonly configured: boolean;
  /** Stripe's publishable key for Elements; null for local billing. */
  readonly publishableKey: string | null;

  getPricing(): Promise<Pricing>;

  /** Creates the provider's customer for a user the first time; returns its id (stored on the user). */
  createCustomer(user: { id: string; email: string; name: string }): Promise<string>;
  updateCustomer(customerId: string, details: BillingDetails): Promise<void>;

  createSetupIntent(customerId: string): Promise<{ clientSecret: string }>;
  listPaymentMethods(customerId: string): Promise<PaymentMethod[]>;
  /** Attaches a confirmed card; the first card becomes the default. */
  attachPaymentMethod(customerId: string, paymentMethodId: string): Promise<void>;
  /** Detaches a card; when it was the default, the newest remaining card becomes the default. */
  detachPaymentMethod(customerId: string, paymentMethodId: string): Promise<void>;
  setDefaultPaymentMethod(customerId: string, paymentMethodId: string): Promise<void>;

  listInvoices(customerId: string): Promise<Invoice[]>;

  /** The customer's current subscription (not canceled ones that ended), or null. */
  getSubscription(customerId: string): Promise<Subscription | null>;
  changePlan(customerId: string, change: PlanChange, idempotencyKey: string): Promise<PlanChangeResult>;
  /** What `changePlan` would do and charge today, without changing or charging anything (issue 27). */
  previewPlanChange(customerId: string, change: PlanChange): Promise<PlanChangePreview>;
  cancelAtPeriodEnd(customerId: string): Promise<Subscription>;
  resume(customerId: string): Promise<Subscription>;

  createCheckoutSession(customerId: string, session: CheckoutRequest): Promise<{ id: string; url: string }>;
  createPortalSession(customerId: string, returnUrl: string): Promise<{ id: string; url: string }>;

  /**
   * The owner deleted their account: end the subscription now (no refund, no further charge) and forget the
   * cards. Stripe: `customers.del`, which cancels the customer's subscriptions at once.
   */
  deleteCustomer?(customerId: string): Promise<void>;
}

export interface PlanChange {
  plan: 'starter' | 'growth';
  billingPeriod: BillingPeriod;
}

export interface PlanChangeResult {
  subscription: Subscription;
  effective: 'now' | 'period_end' | 'none';
  /** The invoice paid for a change that applies now (null when scheduled or unchanged). */
  invoice: Invoice | null;
}

export interface PlanChangePreview {
  effective: 'now' | 'period_end' | 'none';
  /** Cents charged today: the full price (a first subscription), the prorated difference, or 0. */
  amountDue: number;
  currency: string;
  /** When a scheduled change starts (Unix seconds), else null. */
  effectiveAt: number | null;
}

export interface CheckoutRequest extends PlanChange {
  successUrl: string;
  cancelUrl: string;
}

export interface BillingDetails {
  name?: string;
  email?: string;
  address?: { line1?: string; city?: string; state?: string; postal_code?: string; country?: string };
}

export interface BillingProviderDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  /** Base of the links the provider hands out (local hosted pages, invoice and PDF links). */
  publicUrl: string;
}

/** What `createStripeBillingProvider` (providers/billing/stripe.ts) receives: the Stripe config and our deps. */
export type StripeBillingOptions = Omit<Extract<BillingConfig, { provider: 'stripe' }>, 'provider'> &
  BillingProviderDeps;

/** Stripe when STRIPE_SECRET_KEY is set (config.billing), otherwise the local test-card provider. */
export async function createBillingProvider(
  config: BillingConfig,
  deps: BillingProviderDeps,
): Promise<BillingProvider> {
  if (config.provider === 'local') return createLocalBillingProvider(deps);
  const { provider: _stripe, ...stripe } = config;
  const options: StripeBillingOptions = { ...stripe, ...deps };
  // Loaded only when Stripe is configured, so local billing never pulls in the SDK.
  const { createStripeBillingProvider } = await import('./stripe.ts');
  return createStripeBillingProvider(options);
}
