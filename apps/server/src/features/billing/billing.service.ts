import { createHash } from 'node:crypto';
import {
  type BillingDetailsBody,
  type BillingPeriod,
  billingMessages,
  type Invoice,
  type PlanChangeBody,
  planLabels,
  planOfType,
  type Subscription,
  type SubscriptionChangeResponse,
} from '@waitlist/contract';
import type { Database, Executor } from '../../db/client.ts';
import type { SubscriptionFields, UserRow } from '../../db/rows.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, BadRequest, Conflict, NotFound } from '../../lib/errors.ts';
import { formatDate, formatMoney } from '../../lib/format.ts';
import type { Logger } from '../../lib/logger.ts';
import type { RateLimiter } from '../../lib/rate-limit.ts';
import { enqueueEmail } from '../../outbox/index.ts';
import { type BillingProvider, PaymentError, type PlanChange } from '../../providers/billing/index.ts';
import { isLocalBillingProvider, type PeriodEndOutcome } from '../../providers/billing/local.ts';
import type { TestCardInput } from '../../providers/billing/local-cards.ts';
import type { EmailMessage } from '../../providers/email/index.ts';
import {
  billingUpdateEmail,
  paymentFailedEmail,
  planCancelEmail,
  planChangeEmail,
  subscriptionEndedEmail,
  trialEndedEmail,
} from './billing.emails.ts';

export interface BillingServiceDeps {
  db: Database;
  clock: Clock;
  provider: BillingProvider;
  limiter: RateLimiter;
  logger: Logger;
  /** Called after a transaction that queued email commits, so the outbox worker delivers it now. */
  onOutboxWrite: () => void;
  publicUrl: string;
  /** The owners' subscription cache (features/auth's repo owns `users`), handed over in app.ts. */
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

/** "Growth Plan (yearly)": the plan names of SPEC §4 with the billing period. */
export const planName = (plan: 'starter' | 'growth', period: BillingPeriod) =>
  `${planLabels[plan]} (${period})`;

/** The provider's refusals as API errors; their messages are written for the owner. */
function toAppError(error: PaymentError): AppError {
  if (error.code === 'not_found') return new NotFound(error.message);
  if (error.code === 'no_payment_method') return new BadRequest(billingMessages.noPaymentMethod);
  return new BadRequest(error.message);
}

async function providerCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PaymentError) throw toAppError(error);
    throw error;
  }
}

/** The user's subscription fields for a provider subscription (null, or a canceled one: back to the trial plan). */
function subscriptionFields(user: UserRow, subscription: Subscription | null): SubscriptionFields {
  if (!subscription || subscription.status === 'canceled') {
    const ended =
      subscription?.status === 'canceled' ||
      user.subscriptionPlan !== 'free_trial' ||
      user.subscriptionStatus === 'canceled';
    return {
      subscriptionPlan: 'free_trial',
      subscriptionPeriod: null,
      subscriptionStatus: ended ? 'canceled' : user.subscriptionStatus,
      currentPeriodEnd: null,
    };
  }
  return {
    subscriptionPlan: subscription.plan,
    subscriptionPeriod: subscription.billingPeriod,
    subscriptionStatus: subscription.status,
    currentPeriodEnd: new Date(subscription.current_period_end * 1000),
  };
}

function sameFields(user: UserRow, fields: SubscriptionFields) {
  return (
    user.subscriptionPlan === fields.subscriptionPlan &&
    user.subscriptionPeriod === fields.subscriptionPeriod &&
    user.subscriptionStatus === fields.subscriptionStatus &&
    (user.currentPeriodEnd?.getTime() ?? null) === (fields.currentPeriodEnd?.getTime() ?? null)
  );
}

/** Plan values the web sends in notifications (STARTER, growth, free_trial…) as the owner reads them. */
function displayPlan(value: string): string {
  const key = value.trim().toLowerCase();
  return key in planLabels ? planLabels[key as keyof typeof planLabels] : value.trim();
}

/**
 * The billing rules (issue 4), whichever provider is active. The provider holds the money side (cards,
 * subscriptions, invoices, proration); this service decides what is allowed, keeps the user's subscription
 * fields in sync (syncSubscription, shared with the Stripe webhooks and the renewal worker), and emails.
 */
export function createBillingService(deps: BillingServiceDeps) {
  const { db, clock, provider, users } = deps;
  const local = isLocalBillingProvider(provider) ? provider : undefined;
  const planUrl = `${deps.publicUrl}/account?tab=plan`;
  const billingUrl = `${deps.publicUrl}/account?tab=billing`;

  function requireConfigured() {
    if (!provider.configured) throw new AppError(503, billingMessages.notConfigured);
  }

  function requireLocal() {
    if (!local) throw new NotFound(billingMessages.notConfigured);
    return local;
  }

  /** Runs `work` in one transaction; email it queued is delivered only if the transaction commits. */
  async function withOutbox<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
    const result = await db.transaction(work);
    deps.onOutboxWrite();
    return result;
  }

  /** The provider's customer for a user, created the first time (two first calls at once keep one). */
  async function customerOf(user: UserRow): Promise<string> {
    if (user.billingCustomerId) return user.billingCustomerId;
    const fresh = await users.findUserById(db, user.id);
    if (fresh?.billingCustomerId) return fresh.billingCustomerId;
    const customerId = await providerCall(() =>
      provider.createCustomer({
        id: user.id,
        email: user.email,
        name: `${user.firstName} ${user.lastName}`.trim(),
      }),
    );
    if (await users.setBillingCustomerIdIfMissing(db, user.id, customerId)) return customerId;
    const winner = await users.findUserById(db, user.id);
    if (!winner?.billingCustomerId) throw new NotFound(billingMessages.noSubscription);
    return winner.billingCustomerId;
  }

  /** The customer id when the user has one; reads never create a customer. */
  async function existingCustomer(user: UserRow): Promise<string | null> {
    return user.billingCustomerId ?? (await users.findUserById(db, user.id))?.billingCustomerId ?? null;
  }

  /**
   * The one place the user's subscription fields change: after a call, in the renewal worker and in the
   * Stripe webhooks. The owner is emailed on the way into past_due and when a paid subscription ends.
   * Returns the user, or null when no user has this customer id. `executor`: an open transaction to run in.
   */
  async function syncSubscription(
    customerId: string,
    subscription: Subscription | null,
    executor?: Executor,
  ): Promise<UserRow | null> {
    let queued = false;
    // Inside the caller's transaction when given one (the Stripe webhook records the event id in it): the
    // sync becomes a savepoint and commits or rolls back with the caller.
    const user = await (executor ?? db).transaction(async (tx) => {
      const current = await users.findUserByBillingCustomerIdForUpdate(tx, customerId);
      if (!current) return null;
      const fields = subscriptionFields(current, subscription);
      if (sameFields(current, fields)) return current;
      const updated = await users.updateSubscriptionFields(tx, current.id, fields, clock.now());
      let email: EmailMessage | undefined;
      if (fields.subscriptionStatus === 'past_due' && current.subscriptionStatus !== 'past_due') {
        email = paymentFailedEmail(current, billingUrl);
      } else if (fields.subscriptionStatus === 'canceled' && current.subscriptionPlan !== 'free_trial') {
        email = subscriptionEndedEmail(current, planUrl);
      }
      if (email) {
        await enqueueEmail(tx, email, clock.now());
        queued = true;
      }
      return updated ?? current;
    });
    if (queued) deps.onOutboxWrite();
    if (!user) deps.logger.warn({ customerId }, 'billing sync: no user has this customer id');
    return user;
  }

  async function refresh(customerId: string) {
    const subscription = await providerCall(() => provider.getSubscription(customerId));
    await syncSubscription(customerId, subscription);
    return subscription;
  }

  /** Stable for the same request in the same state, so a double submit reuses it and is charged once. */
  function planChangeKey(
    user: UserRow,
    target: PlanChange,
    state: {
      subscription: Subscription | null;
      defaultCardId: string | null;
      latestInvoiceId: string | null;
    },
  ) {
    const { subscription } = state;
    const fingerprint = JSON.stringify({
      user: user.id,
      target,
      subscription: subscription && {
        id: subscription.id,
        plan: subscription.plan,
        billingPeriod: subscription.billingPeriod,
        status: subscription.status,
        start: subscription.current_period_start,
        pending: subscription.pending_change,
        cancelling: subscription.cancel_at_period_end,
      },
      card: state.defaultCardId,
      invoice: state.latestInvoiceId,
    });
    return `plan-change-${createHash('sha256').update(fingerprint).digest('hex').slice(0, 40)}`;
  }

  function changeMessage(
    target: PlanChange,
    effective: PlanChangeOutcome['effective'],
    subscription: Subscription,
    invoice: Invoice | null,
    fromTrial: boolean,
  ) {
    const name = planName(target.plan, target.billingPeriod);
    if (effective === 'none') return billingMessages.planUnchanged;
    if (effective === 'period_end') {
      const at = subscription.pending_change?.effective_at ?? subscription.current_period_end;
      return billingMessages.planChangeScheduled(name, formatDate(new Date(at * 1000)));
    }
    const changed = billingMessages.planChanged(name);
    if (!invoice || invoice.amount_paid === 0) return changed;
    const amount = formatMoney(invoice.amount_paid, invoice.currency);
    return `${changed} ${fromTrial ? billingMessages.fullCharge(amount) : billingMessages.proratedCharge(amount)}`;
  }

  async function applyPeriodEndOutcomes(outcomes: PeriodEndOutcome[]) {
    for (const outcome of outcomes) await syncSubscription(outcome.customerId, outcome.subscription);
  }

  async function expireTrials(now: Date) {
    const expired = await withOutbox(async (tx) => {
      const rows = await users.expireTrials(tx, now);
      for (const owner of rows) await enqueueEmail(tx, trialEndedEmail(owner, planUrl), clock.now());
      return rows;
    });
    return expired.length;
  }

  /**
   * The worker's pass (also run by /dev/billing/advance): the local provider's due period ends (renewals,
   * scheduled changes, cancellations), synced to the users, then trials that ended without a plan.
   */
  async function applyDue() {
    const now = local ? await local.now() : clock.now();
    const outcomes = local ? await local.applyDuePeriodEnds() : [];
    await applyPeriodEndOutcomes(outcomes);
    const trialsExpired = await expireTrials(now);
    return { now, outcomes, trialsExpired };
  }

  return {
    provider,
    syncSubscription,
    applyDue,

    async findUserIdByCustomerId(customerId: string): Promise<string | null> {
      return (await users.findUserByBillingCustomerId(db, customerId))?.id ?? null;
    },

    /** The billing clock: the local provider's (moved by /dev/billing/advance), or the real one. */
    async now(): Promise<Date> {
      return local ? local.now() : clock.now();
    },

    getPricing() {
      requireConfigured();
      return providerCall(() => provider.getPricing());
    },

    async getSubscription(user: UserRow): Promise<Subscription | null> {
      requireConfigured();
      const customerId = await existingCustomer(user);
      return customerId ? refresh(customerId) : null;
    },

    async createSetupIntent(user: UserRow) {
      requireConfigured();
      const customerId = await customerOf(user);
      return providerCall(() => provider.createSetupIntent(customerId));
    },

    async confirmLocalSetupIntent(user: UserRow, clientSecret: string, card: TestCardInput) {
      const localProvider = requireLocal();
      const customerId = await customerOf(user);
      const result = await providerCall(() =>
        localProvider.confirmSetupIntent(customerId, clientSecret, card),
      );
      await refresh(customerId);
      return result;
    },

    async listPaymentMethods(user: UserRow) {
      requireConfigured();
      const customerId = await existingCustomer(user);
      return customerId ? providerCall(() => provider.listPaymentMethods(customerId)) : [];
    },

    async attachPaymentMethod(user: UserRow, paymentMethodId: string) {
      requireConfigured();
      const customerId = await customerOf(user);
      await providerCall(() => provider.attachPaymentMethod(customerId, paymentMethodId));
      await refresh(customerId);
      return providerCall(() => provider.listPaymentMethods(customerId));
    },

    async detachPaymentMethod(user: UserRow, paymentMethodId: string) {
      requireConfigured();
      const customerId = await existingCustomer(user);
      if (!customerId) throw new NotFound(billingMessages.paymentMethodNotFound);
      await providerCall(() => provider.detachPaymentMethod(customerId, paymentMethodId));
      return providerCall(() => provider.listPaymentMethods(customerId));
    },

    async setDefaultPaymentMethod(user: UserRow, paymentMethodId: string) {
      requireConfigured();
      const customerId = await existingCustomer(user);
      if (!customerId) throw new NotFound(billingMessages.paymentMethodNotFound);
      await providerCall(() => provider.setDefaultPaymentMethod(customerId, paymentMethodId));
      await refresh(customerId);
      return providerCall(() => provider.listPaymentMethods(customerId));
    },

    async listInvoices(user: UserRow) {
      requireConfigured();
      const customerId = await existingCustomer(user);
      return customerId ? providerCall(() => provider.listInvoices(customerId)) : [];
    },

    /**
     * Trial → paid and changes to a more expensive price are charged now (prorated); cheaper ones are
     * scheduled for the end of the period; the current plan again changes nothing. A card is required.
     */
    async changePlan(
      user: UserRow,
      body: PlanChangeBody,
      paymentMethodId?: string,
    ): Promise<PlanChangeOutcome> {
      requireConfigured();
      const target: PlanChange = { plan: planOfType[body.planType], billingPeriod: body.billingPeriod };
      const customerId = await customerOf(user);
      if (paymentMethodId) {
        await providerCall(() => provider.attachPaymentMethod(customerId, paymentMethodId));
        await providerCall(() => provider.setDefaultPaymentMethod(customerId, paymentMethodId));
      }
      const [subscription, cards, invoices] = await Promise.all([
        providerCall(() => provider.getSubscription(customerId)),
        providerCall(() => provider.listPaymentMethods(customerId)),
        providerCall(() => provider.listInvoices(customerId)),
      ]);
      const unchanged =
        subscription &&
        subscription.plan === target.plan &&
        subscription.billingPeriod === target.billingPeriod &&
        !subscription.pending_change;
      if (unchanged) {
        await syncSubscription(customerId, subscription);
        return { message: billingMessages.planUnchanged, subscription, effective: 'none', invoice: null };
      }
      if (cards.length === 0) throw new BadRequest(billingMessages.noPaymentMethod);

      const idempotencyKey = planChangeKey(user, target, {
        subscription,
        defaultCardId: (cards.find((card) => card.isDefault) ?? cards[0])?.id ?? null,
        latestInvoiceId: invoices[0]?.id ?? null,
      });
      const result = await providerCall(() => provider.changePlan(customerId, target, idempotencyKey));
      await syncSubscription(customerId, result.subscription);
      return {
        message: changeMessage(target, result.effective, result.subscription, result.invoice, !subscription),
        subscription: result.subscription,
        effective: result.effective,
        invoice: result.invoice,
      };
    },

    /** Only an active subscription that is not already cancelling; it stays active to the period end. */
    async cancel(user: UserRow) {
      requireConfigured();
      const customerId = await existingCustomer(user);
      const current = customerId ? await providerCall(() => provider.getSubscription(customerId)) : null;
      if (!customerId || !current) throw new Conflict(billingMessages.noSubscription);
      if (current.status !== 'active') throw new Conflict(billingMessages.notActive);
      if (current.cancel_at_period_end) throw new Conflict(billingMessages.alreadyCancelling);
      const subscription = await providerCall(() => provider.cancelAtPeriodEnd(customerId));
      await syncSubscription(customerId, subscription);
      return { message: billingMessages.subscriptionCancelled, subscription };
    },

    /** Only while the subscription is set to cancel at the period end. */
    async resume(user: UserRow) {
      requireConfigured();
      const customerId = await existingCustomer(user);
      const current = customerId ? await providerCall(() => provider.getSubscription(customerId)) : null;
      if (!customerId || !current) throw new Conflict(billingMessages.noSubscription);
      if (!current.cancel_at_period_end) throw new Conflict(billingMessages.notCancelling);
      const subscription = await providerCall(() => provider.resume(customerId));
      await syncSubscription(customerId, subscription);
      return { message: billingMessages.subscriptionResumed, subscription };
    },

    /** A hosted checkout for a first subscription; an existing one is changed on the Plan tab instead. */
    async createCheckoutSession(user: UserRow, body: PlanChangeBody) {
      requireConfigured();
      const customerId = await customerOf(user);
      if (await providerCall(() => provider.getSubscription(customerId))) {
        throw new Conflict(billingMessages.alreadySubscribed);
      }
      return providerCall(() =>
        provider.createCheckoutSession(customerId, {
          plan: planOfType[body.planType],
          billingPeriod: body.billingPeriod,
          successUrl: `${deps.publicUrl}/subscription/success?session_id={CHECKOUT_SESSION_ID}`,
          cancelUrl: `${deps.publicUrl}/subscription/cancel`,
        }),
      );
    },

    async createPortalSession(user: UserRow) {
      requireConfigured();
      const customerId = await customerOf(user);
      return providerCall(() => provider.createPortalSession(customerId, billingUrl));
    },

    async updateBillingDetails(user: UserRow, details: BillingDetailsBody) {
      requireConfigured();
      const customerId = await customerOf(user);
      await providerCall(() => provider.updateCustomer(customerId, details));
    },

    /** POST /notifications/*: one email to the owner through the outbox (the web calls these after a change). */
    async notify(
      user: UserRow,
      notification:
        | { kind: 'plan-change'; oldPlan: string; newPlan: string }
        | { kind: 'plan-cancel' }
        | { kind: 'billing-update' },
    ) {
      await deps.limiter.consume('billingNotificationAccount', user.id);
      const customerId = await existingCustomer(user);
      const subscription =
        customerId && notification.kind !== 'billing-update'
          ? await provider.getSubscription(customerId).catch(() => null)
          : null;
      let email: EmailMessage;
      if (notification.kind === 'plan-change') {
        const pending = subscription?.pending_change;
        email = planChangeEmail(
          user,
          {
            oldPlan: displayPlan(notification.oldPlan),
            newPlan: displayPlan(notification.newPlan),
            detail: pending
              ? `The change takes effect on ${formatDate(new Date(pending.effective_at * 1000))}, at the end of your current billing period.`
              : null,
          },
          billingUrl,
        );
      } else if (notification.kind === 'plan-cancel') {
        const until =
          subscription?.cancel_at_period_end === true
            ? formatDate(new Date(subscription.current_period_end * 1000))
            : null;
        email = planCancelEmail(user, until, planUrl);
      } else {
        email = billingUpdateEmail(user, billingUrl);
      }
      await withOutbox((tx) => enqueueEmail(tx, email, clock.now()));
    },

    /** Before the owner's account is deleted: the subscription ends now, so nothing is charged afterwards. */
    async closeAccount(user: UserRow) {
      const customerId = await existingCustomer(user);
      if (!customerId) return;
      if (provider.deleteCustomer) {
        await providerCall(() => provider.deleteCustomer!(customerId));
      } else {
        deps.logger.warn({ customerId }, 'billing provider cannot delete customers; subscription left as is');
      }
    },

    /** Local billing only: pays a hosted checkout and syncs the owner. PaymentError is left to the page. */
    async completeLocalCheckout(sessionId: string, card: TestCardInput) {
      const localProvider = requireLocal();
      const result = await localProvider.completeCheckout(sessionId, card);
      await syncSubscription(result.customerId, result.subscription);
      return result;
    },
  };
}
