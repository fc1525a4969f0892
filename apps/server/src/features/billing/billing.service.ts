import type { BillingDetailsBody, Subscription, SubscriptionChangeResponse } from '@waitlist/contract';
import type { Database, Executor } from '../../db/client.ts';
import type { SubscriptionFields, UserRow } from '../../db/rows.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Logger } from '../../lib/logger.ts';
import type { RateLimiter } from '../../lib/rate-limit.ts';
import type { BillingProvider } from '../../providers/billing/index.ts';
import type { TestCardInput } from '../../providers/billing/local-cards.ts';
import { createBillingContext, providerCall } from './billing-context.ts';
import { type BillingNotification, notifyOwner } from './billing-notifications.ts';
import { billingPaymentMethodCalls } from './billing-payment-methods.ts';
import { billingPlanCalls } from './billing-plans.ts';
import { applyDue } from './billing-renewals.ts';

export { planName } from './billing-plans.ts';

export interface BillingServiceDeps {
  db: Database;
  clock: Clock;
  provider: BillingProvider;
  limiter: RateLimiter;
  logger: Logger;
  /** Called after a transaction that queued email commits, so the outbox worker delivers it now. */
  onOutboxWrite: () => void;
  publicUrl: string;
  /** The owners' subscription cache (features/auth's repo owns `users`), handed over in composition.ts. */
  users: BillingUsers;
}

/** What billing reads and writes of the owners; each takes the caller's executor. */
export interface BillingUsers {
  findUserById(executor: Executor, id: string): Promise<UserRow | undefined>;
  findUserByBillingCustomerId(executor: Executor, customerId: string): Promise<UserRow | undefined>;
  /** Locked, so a sync and the transition email it may send happen once. */
  findUserByBillingCustomerIdForUpdate(executor: Executor, customerId: string): Promise<UserRow | undefined>;
  /** Stores the provider's customer id unless one is there already (two first calls at once keep one). */
  setBillingCustomerIdIfMissing(
    executor: Executor,
    userId: string,
    customerId: string,
  ): Promise<UserRow | undefined>;
  updateSubscriptionFields(
    executor: Executor,
    userId: string,
    fields: SubscriptionFields,
    now: Date,
  ): Promise<UserRow | undefined>;
  /** Marks trials that ended by `now` and never became a paid plan; returns whom to tell. */
  expireTrials(executor: Executor, now: Date): Promise<{ id: string; email: string; firstName: string }[]>;
}

export type BillingService = ReturnType<typeof createBillingService>;
export type BillingUser = UserRow;
export type PlanChangeOutcome = Omit<SubscriptionChangeResponse, 'success'>;

/**
 * The billing rules (issue 4), whichever provider is active. The provider holds the money side (cards,
 * subscriptions, invoices, proration); this service decides what is allowed, keeps the user's subscription
 * fields in sync (syncSubscription, shared with the Stripe webhooks and the renewal worker), and emails.
 * By concern: plans (billing-plans.ts), cards (billing-payment-methods.ts), the sync (billing-sync.ts), the
 * worker's pass (billing-renewals.ts) and the owner's notifications (billing-notifications.ts).
 */
export function createBillingService(deps: BillingServiceDeps) {
  const ctx = createBillingContext(deps);
  const { db, clock, provider, users, local } = ctx;

  return {
    provider,
    syncSubscription: ctx.syncSubscription,
    applyDue: () => applyDue(ctx),

    async findUserIdByCustomerId(customerId: string): Promise<string | null> {
      return (await users.findUserByBillingCustomerId(db, customerId))?.id ?? null;
    },

    /** The billing clock: the local provider's (moved by /dev/billing/advance), or the real one. */
    async now(): Promise<Date> {
      return local ? local.now() : clock.now();
    },

    getPricing() {
      ctx.requireConfigured();
      return providerCall(() => provider.getPricing());
    },

    async getSubscription(user: UserRow): Promise<Subscription | null> {
      ctx.requireConfigured();
      const customerId = await ctx.existingCustomer(user);
      return customerId ? ctx.refresh(customerId) : null;
    },

    ...billingPaymentMethodCalls(ctx),

    async listInvoices(user: UserRow) {
      ctx.requireConfigured();
      const customerId = await ctx.existingCustomer(user);
      return customerId ? providerCall(() => provider.listInvoices(customerId)) : [];
    },

    ...billingPlanCalls(ctx),

    async createPortalSession(user: UserRow) {
      ctx.requireConfigured();
      const customerId = await ctx.customerOf(user);
      return providerCall(() => provider.createPortalSession(customerId, ctx.billingUrl));
    },

    async updateBillingDetails(user: UserRow, details: BillingDetailsBody) {
      ctx.requireConfigured();
      const customerId = await ctx.customerOf(user);
      await providerCall(() => provider.updateCustomer(customerId, details));
    },

    notify: (user: UserRow, notification: BillingNotification) => notifyOwner(ctx, user, notification),

    /** Before the owner's account is deleted: the subscription ends now, so nothing is charged afterwards. */
    async closeAccount(user: UserRow) {
      const customerId = await ctx.existingCustomer(user);
      if (!customerId) return;
      if (provider.deleteCustomer) {
        await providerCall(() => provider.deleteCustomer!(customerId));
      } else {
        deps.logger.warn({ customerId }, 'billing provider cannot delete customers; subscription left as is');
      }
    },

    /** Local billing only: pays a hosted checkout and syncs the owner. PaymentError is left to the page. */
    async completeLocalCheckout(sessionId: string, card: TestCardInput) {
      const localProvider = ctx.requireLocal();
      const result = await localProvider.completeCheckout(sessionId, card);
      await ctx.syncSubscription(result.customerId, result.subscription);
      return result;
    },
  };
}
