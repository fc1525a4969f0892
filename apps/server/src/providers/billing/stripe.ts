import { createHash } from 'node:crypto';
import {
  type BillingPeriod,
  billingMessages,
  type Invoice,
  type PaymentMethod,
  type PendingChange,
  PLAN_PRICES,
  type Pricing,
  type Subscription,
  type SubscriptionStatus,
} from '@waitlist/contract';
import Stripe from 'stripe';
import { type Clock, systemClock } from '../../lib/clock.ts';
import { BadRequest } from '../../lib/errors.ts';
import type {
  BillingDetails,
  BillingProvider,
  CheckoutRequest,
  PlanChange,
  PlanChangeResult,
} from './index.ts';
import { PaymentError } from './payment-error.ts';

type Plan = PlanChange['plan'];
type PriceIds = { monthly?: string | undefined; yearly?: string | undefined };

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

const PRICING_CACHE_MS = 5 * 60 * 1000;
const PLAN_KEYS = { starter: 'STARTER', growth: 'GROWTH' } as const;
/** Statuses of a subscription that still exists for the owner, best first. */
const LIVE_STATUSES = ['active', 'trialing', 'past_due', 'unpaid', 'paused', 'incomplete'];

/**
 * Stripe through the official SDK. Stripe is the source of truth: every answer is read back from Stripe
 * and mapped to the contract (Unix seconds, cents). Upgrades are charged now with Stripe's own proration
 * (`always_invoice`); downgrades wait for the period end in a subscription schedule, shown as
 * `pending_change`. Every call that can charge or create a billable object carries an idempotency key
 * derived from the caller's key, so a retried or double-submitted change is applied once.
 */
export function createStripeBillingProvider(options: StripeProviderOptions): BillingProvider {
  const clock = options.clock ?? systemClock;
  const stripe = new Stripe(options.secretKey, {
    ...hostOptions(options.apiUrl),
    maxNetworkRetries: options.maxNetworkRetries ?? 2,
    // A hung Stripe costs a request at most ~3 × 8 s (retries included), then a clean 503 (issue 17).
    timeout: 8_000,
    appInfo: { name: 'Waitlist & Text' },
  });

  const priceIds: Record<Plan, PriceIds> = { starter: options.prices.STARTER, growth: options.prices.GROWTH };
  const publishableKey = options.publishableKey || null;
  // Without the publishable key the card form (Stripe Elements) cannot run; without a price, that plan can't be sold.
  const configured =
    Boolean(publishableKey) && Object.values(priceIds).every((ids) => Boolean(ids.monthly && ids.yearly));

  const priceIdFor = (plan: Plan, period: BillingPeriod): string => {
    const id = priceIds[plan][period];
    if (!id) {
      throw new BadRequest(
        `Stripe price for ${PLAN_KEYS[plan]} ${period} is not configured (STRIPE_PRICE_${PLAN_KEYS[plan]}_${period.toUpperCase()}).`,
      );
    }
    return id;
  };

  const planOfPrice = (priceId: string): PlanChange | null => {
    for (const plan of ['starter', 'growth'] as const) {
      for (const billingPeriod of ['monthly', 'yearly'] as const) {
        if (priceIds[plan][billingPeriod] === priceId) return { plan, billingPeriod };
      }
    }
    return null;
  };

  let pricingCache: { pricing: Pricing; expiresAt: number } | null = null;

  async function getPricing(): Promise<Pricing> {
    const now = clock.now().getTime();
    if (pricingCache && pricingCache.expiresAt > now) return pricingCache.pricing;
    const amountOf = async (plan: Plan, period: BillingPeriod) => {
      const id = priceIds[plan][period];
      if (!id) return PLAN_PRICES[PLAN_KEYS[plan]][period];
      const price = await call(() => stripe.prices.retrieve(id));
      return { amount: price.unit_amount ?? 0, currency: price.currency };
    };
    const [starterMonthly, starterYearly, growthMonthly, growthYearly] = await Promise.all([
      amountOf('starter', 'monthly'),
      amountOf('starter', 'yearly'),
      amountOf('growth', 'monthly'),
      amountOf('growth', 'yearly'),
    ]);
    const pricing: Pricing = {
      STARTER: { monthly: starterMonthly, yearly: starterYearly },
      GROWTH: { monthly: growthMonthly, yearly: growthYearly },
    };
    pricingCache = { pricing, expiresAt: now + PRICING_CACHE_MS };
    return pricing;
  }

  async function defaultPaymentMethodOf(customerId: string): Promise<string | null> {
    const customer = await call(() => stripe.customers.retrieve(customerId));
    if ('deleted' in customer && customer.deleted)
      throw new PaymentError(billingMessages.noSubscription, 'not_found');
    return idOf((customer as Stripe.Customer).invoice_settings?.default_payment_method ?? null);
  }

  async function listCards(customerId: string): Promise<Stripe.PaymentMethod[]> {
    const list = await call(() =>
      stripe.paymentMethods.list({ customer: customerId, type: 'card', limit: 100 }),
    );
    return [...list.data].sort((a, b) => b.created - a.created);
  }

  /** The card, when it belongs to this customer; otherwise the contract's "not found". */
  async function ownedCard(customerId: string, paymentMethodId: string): Promise<Stripe.PaymentMethod> {
    const card = await call(() => stripe.paymentMethods.retrieve(paymentMethodId)).catch((error: unknown) => {
      if (error instanceof PaymentError) throw error;
      if (isMissingResource(error))
        throw new PaymentError(billingMessages.paymentMethodNotFound, 'not_found');
      throw error;
    });
    if (idOf(card.customer) !== customerId)
      throw new PaymentError(billingMessages.paymentMethodNotFound, 'not_found');
    return card;
  }

  /** The owner's live subscription (schedule expanded), or null. Subscriptions on prices we don't sell are ignored. */
  async function currentSubscription(customerId: string): Promise<Stripe.Subscription | null> {
    const list = await call(() =>
      stripe.subscriptions.list({ customer: customerId, limit: 20, expand: ['data.schedule'] }),
    );
    const ours = list.data.filter(
      (subscription) =>
        LIVE_STATUSES.includes(subscription.status) && planOfPrice(itemOf(subscription).price.id) !== null,
    );
    ours.sort(
      (a, b) => LIVE_STATUSES.indexOf(a.status) - LIVE_STATUSES.indexOf(b.status) || b.created - a.created,
    );
    return ours[0] ?? null;
  }

  /**
   * Drops a pending downgrade. Also needed before a cancellation: Stripe refuses cancellation changes on a
   * subscription a schedule manages. `keyFor` gets the schedule id, so a key only ever replays on one schedule.
   */
  async function releaseSchedule(subscription: Stripe.Subscription, keyFor?: (scheduleId: string) => string) {
    const scheduleId = idOf(subscription.schedule);
    if (!scheduleId) return;
    const schedule = typeof subscription.schedule === 'object' ? subscription.schedule : null;
    if (schedule && !['active', 'not_started'].includes(schedule.status)) return;
    await call(() =>
      stripe.subscriptionSchedules.release(
        scheduleId,
        { preserve_cancel_date: true },
        keyFor ? { idempotencyKey: keyFor(scheduleId) } : undefined,
      ),
    );
    subscription.schedule = null;
  }

  function toSubscription(
    subscription: Stripe.Subscription,
    schedule: Stripe.SubscriptionSchedule | null = expandedSchedule(subscription),
  ): Subscription {
    const item = itemOf(subscription);
    const current = planOfPrice(item.price.id);
    if (!current) throw new Error(`Subscription ${subscription.id} is on an unknown price ${item.price.id}`);
    const { start, end } = periodOf(subscription);
    return {
      id: subscription.id,
      status: toStatus(subscription.status),
      plan: current.plan,
      billingPeriod: current.billingPeriod,
      cancel_at_period_end: subscription.cancel_at_period_end || Boolean(subscription.cancel_at),
      current_period_start: start,
      current_period_end: end,
      created: subscription.created,
      pending_change: pendingChangeOf(schedule, current, end),
    };
  }

  function pendingChangeOf(
    schedule: Stripe.SubscriptionSchedule | null,
    current: PlanChange,
    periodEnd: number,
  ): PendingChange | null {
    if (!schedule || !['active', 'not_started'].includes(schedule.status)) return null;
    const next = schedule.phases
      .filter((phase) => phase.start_date >= periodEnd)
      .sort((a, b) => a.start_date - b.start_date)[0];
    const priceId = next && idOf(next.items[0]?.price ?? null);
    const target = priceId ? planOfPrice(priceId) : null;
    if (!next || !target) return null;
    if (target.plan === current.plan && target.billingPeriod === current.billingPeriod) return null;
    return { plan: target.plan, billingPeriod: target.billingPeriod, effective_at: next.start_date };
  }

  async function changePlan(
    customerId: string,
    change: PlanChange,
    idempotencyKey: string,
  ): Promise<PlanChangeResult> {
    const targetPrice = priceIdFor(change.plan, change.billingPeriod);
    const key = (step: string) => idempotencyKeyOf(`plan-change:${idempotencyKey}:${step}`);
    const current = await currentSubscription(customerId);

    if (!current) {
      const paymentMethod = await requireDefaultCard(customerId);
      const subscribe = (idempotencyKey: string) =>
        call(() =>
          stripe.subscriptions.create(
            {
              customer: customerId,
              items: [{ price: targetPrice, quantity: 1 }],
              default_payment_method: paymentMethod,
              payment_behavior: 'error_if_incomplete',
              metadata: { plan: change.plan, billingPeriod: change.billingPeriod },
              expand: ['latest_invoice'],
            },
            { idempotencyKey },
          ),
        );
      let created = await subscribe(key('create'));
      // A replay is right for a double submit, but a key reused after that subscription ended replays a
      // subscription that is gone: then subscribe anew, keyed on the old one (still stable for retries).
      for (let attempt = 0; attempt < 3 && replayed(created); attempt += 1) {
        const previous = await call(() => stripe.subscriptions.retrieve(created.id));
        if (LIVE_STATUSES.includes(previous.status)) break;
        created = await subscribe(key(`create-after:${created.id}`));
      }
      return {
        subscription: toSubscription(created, null),
        effective: 'now',
        invoice: latestInvoiceOf(created),
      };
    }

    const item = itemOf(current);
    if (item.price.id === targetPrice) {
      // Keeping the current plan drops a downgrade scheduled earlier; nothing is charged.
      await releaseSchedule(current, (scheduleId) => key(`keep:${scheduleId}`));
      return { subscription: toSubscription(current, null), effective: 'none', invoice: null };
    }

    const pricing = await getPricing();
    const currentTarget = planOfPrice(item.price.id)!;
    const currentAmount = item.price.unit_amount ?? amountIn(pricing, currentTarget);
    const targetAmount = amountIn(pricing, change);

    if (targetAmount > currentAmount) {
      // To a more expensive price: Stripe prorates and invoices the difference now, paid with the default card.
      const paymentMethod = await requireDefaultCard(customerId);
      await releaseSchedule(current, (scheduleId) => key(`release:${scheduleId}`));
      const updated = await call(() =>
        stripe.subscriptions.update(
          current.id,
          {
            items: [{ id: item.id, price: targetPrice, quantity: 1 }],
            proration_behavior: 'always_invoice',
            payment_behavior: 'error_if_incomplete',
            default_payment_method: paymentMethod,
            // Choosing a plan means the owner no longer wants to cancel (as with local billing).
            ...withdrawCancellation(current),
            metadata: { plan: change.plan, billingPeriod: change.billingPeriod },
            expand: ['latest_invoice'],
          },
          { idempotencyKey: key(`upgrade:${current.id}`) },
        ),
      );
      return {
        subscription: toSubscription(updated, null),
        effective: 'now',
        invoice: latestInvoiceOf(updated),
      };
    }

    // To a cheaper price: a schedule keeps the current price until the period ends, then switches.
    const withdraw = withdrawCancellation(current);
    if (Object.keys(withdraw).length > 0) {
      // Choosing a plan for the next period means the owner no longer wants to cancel.
      const resumed = await call(() =>
        stripe.subscriptions.update(
          current.id,
          { ...withdraw, expand: ['schedule'] },
          { idempotencyKey: key(`resume:${current.id}`) },
        ),
      );
      Object.assign(current, { cancel_at_period_end: false, cancel_at: null, schedule: resumed.schedule });
    }
    const { end } = periodOf(current);
    const scheduleFor = (idempotencyKey: string) =>
      call(() => stripe.subscriptionSchedules.create({ from_subscription: current.id }, { idempotencyKey }));
    const usable = (candidate: Stripe.SubscriptionSchedule | null): boolean =>
      candidate !== null &&
      ['active', 'not_started'].includes(candidate.status) &&
      idOf(candidate.subscription) === current.id;
    let schedule = expandedSchedule(current);
    if (!schedule || !usable(schedule)) {
      let created = await scheduleFor(key(`schedule:${current.id}`));
      // As for subscriptions: a replayed schedule that was released since is replaced by a new one.
      for (let attempt = 0; attempt < 3 && replayed(created); attempt += 1) {
        const previous = await call(() => stripe.subscriptionSchedules.retrieve(created.id));
        if (usable(previous)) break;
        created = await scheduleFor(key(`schedule-after:${created.id}`));
      }
      schedule = created;
    }
    const currentPhaseStart =
      schedule.current_phase?.start_date ?? schedule.phases[0]?.start_date ?? periodOf(current).start;
    const scheduleId = schedule.id;
    const updatedSchedule = await call(() =>
      stripe.subscriptionSchedules.update(
        scheduleId,
        {
          end_behavior: 'release',
          proration_behavior: 'none',
          phases: [
            {
              items: [{ price: item.price.id, quantity: 1 }],
              start_date: currentPhaseStart,
              end_date: end,
              proration_behavior: 'none',
            },
            {
              items: [{ price: targetPrice, quantity: 1 }],
              duration: { interval: change.billingPeriod === 'yearly' ? 'year' : 'month', interval_count: 1 },
              proration_behavior: 'none',
              metadata: { plan: change.plan, billingPeriod: change.billingPeriod },
            },
          ],
        },
        { idempotencyKey: key(`phases:${scheduleId}`) },
      ),
    );
    return {
      subscription: toSubscription({ ...current, schedule: updatedSchedule }, updatedSchedule),
      effective: 'period_end',
      invoice: null,
    };
  }

  async function requireDefaultCard(customerId: string): Promise<string> {
    const paymentMethod = await defaultPaymentMethodOf(customerId);
    if (!paymentMethod) throw new PaymentError(billingMessages.noPaymentMethod, 'no_payment_method');
    return paymentMethod;
  }

  /** Makes a card the customer's default, and the live subscription's too so renewals charge it. */
  async function applyDefault(customerId: string, paymentMethodId: string | null) {
    await call(() =>
      stripe.customers.update(customerId, {
        invoice_settings: { default_payment_method: paymentMethodId ?? '' },
      }),
    );
    if (!paymentMethodId) return;
    const subscription = await currentSubscription(customerId);
    const subscriptionCard = idOf(subscription?.default_payment_method ?? null);
    if (subscription && subscriptionCard && subscriptionCard !== paymentMethodId) {
      await call(() =>
        stripe.subscriptions.update(subscription.id, { default_payment_method: paymentMethodId }),
      );
    }
  }

  return {
    name: 'stripe',
    configured,
    publishableKey,

    getPricing,

    async createCustomer(user) {
      // Keyed to the user: two first calls at once (or a retry after a lost answer) get one customer.
      const params = { email: user.email, name: user.name, metadata: { userId: user.id } };
      const create = (idempotencyKey: string) =>
        call(() => stripe.customers.create(params, { idempotencyKey }));
      try {
        return (await create(idempotencyKeyOf(`customer-${user.id}`))).id;
      } catch (error) {
        // Stripe replays a key for 24 hours, only with the first call's parameters: when the owner changed
        // their name or email since a first call whose customer we never stored, key on these details.
        if (!(error instanceof Stripe.errors.StripeIdempotencyError)) throw error;
        return (await create(idempotencyKeyOf(`customer-${user.id}-${hash(JSON.stringify(params))}`))).id;
      }
    },

    async updateCustomer(customerId: string, details: BillingDetails) {
      const address =
        details.address && Object.values(details.address).some(Boolean) ? details.address : undefined;
      await call(() =>
        stripe.customers.update(customerId, {
          ...(details.name !== undefined ? { name: details.name } : {}),
          ...(details.email !== undefined ? { email: details.email } : {}),
          ...(address ? { address } : {}),
        }),
      );
    },

    async createSetupIntent(customerId) {
      const intent = await call(() =>
        stripe.setupIntents.create({
          customer: customerId,
          usage: 'off_session',
          allowed_payment_method_types: ['card'],
        }),
      );
      if (!intent.client_secret) throw new Error('Stripe returned a SetupIntent without a client secret');
      return { clientSecret: intent.client_secret };
    },

    async listPaymentMethods(customerId): Promise<PaymentMethod[]> {
      const [cards, defaultId] = await Promise.all([
        listCards(customerId),
        defaultPaymentMethodOf(customerId),
      ]);
      return cards.map((card) => toPaymentMethod(card, defaultId));
    },

    async attachPaymentMethod(customerId, paymentMethodId) {
      const card = await call(() => stripe.paymentMethods.retrieve(paymentMethodId)).catch(
        (error: unknown) => {
          if (isMissingResource(error))
            throw new PaymentError(billingMessages.paymentMethodNotFound, 'not_found');
          throw error;
        },
      );
      const owner = idOf(card.customer);
      if (owner && owner !== customerId)
        throw new PaymentError(billingMessages.paymentMethodNotFound, 'not_found');
      // A SetupIntent confirmed by Stripe Elements has already attached the card to the customer.
      if (!owner) await call(() => stripe.paymentMethods.attach(paymentMethodId, { customer: customerId }));
      if (!(await defaultPaymentMethodOf(customerId))) await applyDefault(customerId, paymentMethodId);
    },

    async detachPaymentMethod(customerId, paymentMethodId) {
      await ownedCard(customerId, paymentMethodId);
      const defaultId = await defaultPaymentMethodOf(customerId);
      await call(() => stripe.paymentMethods.detach(paymentMethodId));
      if (defaultId === paymentMethodId) {
        const [newest] = await listCards(customerId);
        await applyDefault(customerId, newest?.id ?? null);
      }
    },

    async setDefaultPaymentMethod(customerId, paymentMethodId) {
      await ownedCard(customerId, paymentMethodId);
      await applyDefault(customerId, paymentMethodId);
    },

    async listInvoices(customerId): Promise<Invoice[]> {
      const list = await call(() => stripe.invoices.list({ customer: customerId, limit: 100 }));
      return list.data.filter((invoice) => invoice.status !== 'draft').map(toInvoice);
    },

    async getSubscription(customerId) {
      const subscription = await currentSubscription(customerId);
      return subscription ? toSubscription(subscription) : null;
    },

    changePlan,

    async cancelAtPeriodEnd(customerId) {
      const subscription = await currentSubscription(customerId);
      if (!subscription) throw new PaymentError(billingMessages.noSubscription, 'not_found');
      // A pending downgrade has no meaning once the subscription ends with the period.
      await releaseSchedule(subscription);
      const updated = await call(() =>
        stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true }),
      );
      return toSubscription(updated, null);
    },

    async resume(customerId) {
      const subscription = await currentSubscription(customerId);
      if (!subscription) throw new PaymentError(billingMessages.noSubscription, 'not_found');
      const withdraw = withdrawCancellation(subscription);
      if (Object.keys(withdraw).length === 0) return toSubscription(subscription);
      const updated = await call(() => stripe.subscriptions.update(subscription.id, withdraw));
      return toSubscription(updated);
    },

    async createCheckoutSession(customerId, request: CheckoutRequest) {
      const price = priceIdFor(request.plan, request.billingPeriod);
      const successUrl =
        request.successUrl || `${options.publicUrl}/subscription/success?session_id={CHECKOUT_SESSION_ID}`;
      const cancelUrl = request.cancelUrl || `${options.publicUrl}/subscription/cancel`;
      // Double clicks within the same minute get the same session rather than a second one.
      const minute = Math.floor(clock.now().getTime() / 60_000);
      const session = await call(() =>
        stripe.checkout.sessions.create(
          {
            mode: 'subscription',
            customer: customerId,
            line_items: [{ price, quantity: 1 }],
            success_url: successUrl,
            cancel_url: cancelUrl,
            subscription_data: { metadata: { plan: request.plan, billingPeriod: request.billingPeriod } },
          },
          {
            idempotencyKey: idempotencyKeyOf(
              `checkout:${customerId}:${price}:${hash(`${successUrl}|${cancelUrl}`)}:${minute}`,
            ),
          },
        ),
      );
      if (!session.url) throw new Error('Stripe returned a Checkout Session without a URL');
      return { id: session.id, url: session.url };
    },

    async createPortalSession(customerId, returnUrl) {
      const session = await call(() =>
        stripe.billingPortal.sessions.create({
          customer: customerId,
          return_url: returnUrl || `${options.publicUrl}/account?tab=billing`,
        }),
      );
      return { id: session.id, url: session.url };
    },

    async deleteCustomer(customerId) {
      // Stripe cancels the customer's subscriptions at once (nothing more is charged) and drops its cards.
      await call(() => stripe.customers.del(customerId)).catch((error: unknown) => {
        // Deleted already (a retried account deletion, or from the Dashboard): nothing is left to charge.
        if (isMissingResource(error)) return;
        throw error;
      });
    },
  };
}

// ---- mapping ----

function amountIn(pricing: Pricing, target: PlanChange): number {
  return pricing[PLAN_KEYS[target.plan]][target.billingPeriod].amount;
}

function hostOptions(apiUrl: string | undefined): Partial<Stripe.StripeConfig> {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
  };
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

function itemOf(subscription: Stripe.Subscription): Stripe.SubscriptionItem {
  const item = subscription.items.data[0];
  if (!item) throw new Error(`Subscription ${subscription.id} has no items`);
  return item;
}

/**
 * Recent Stripe API versions moved the billing period from the subscription onto its items; older payloads
 * still carry it on the subscription itself.
 */
function periodOf(subscription: Stripe.Subscription): { start: number; end: number } {
  const item = itemOf(subscription) as Partial<Stripe.SubscriptionItem>;
  const legacy = subscription as unknown as { current_period_start?: number; current_period_end?: number };
  return {
    start: item.current_period_start ?? legacy.current_period_start ?? subscription.start_date,
    end: item.current_period_end ?? legacy.current_period_end ?? subscription.start_date,
  };
}

/**
 * The update that withdraws a pending cancellation: `cancel_at_period_end`, or the `cancel_at` date the
 * hosted portal may set instead (the contract shows either as `cancel_at_period_end`). Empty when none.
 */
function withdrawCancellation(subscription: Stripe.Subscription): Stripe.SubscriptionUpdateParams {
  if (subscription.cancel_at_period_end) return { cancel_at_period_end: false };
  if (subscription.cancel_at) return { cancel_at: '' };
  return {};
}

function expandedSchedule(subscription: Stripe.Subscription): Stripe.SubscriptionSchedule | null {
  return subscription.schedule && typeof subscription.schedule === 'object' ? subscription.schedule : null;
}

function toStatus(status: Stripe.Subscription.Status): SubscriptionStatus {
  switch (status) {
    case 'active':
    case 'trialing':
    case 'past_due':
    case 'canceled':
    case 'incomplete':
    case 'unpaid':
      return status as SubscriptionStatus;
    case 'incomplete_expired':
      return 'canceled';
    default:
      // `paused` (a trial that ended without a card) and any status added later: not being paid.
      return 'unpaid';
  }
}

function toPaymentMethod(card: Stripe.PaymentMethod, defaultId: string | null): PaymentMethod {
  return {
    id: card.id,
    brand: card.card?.brand ?? 'unknown',
    last4: card.card?.last4 ?? '',
    exp_month: card.card?.exp_month ?? 0,
    exp_year: card.card?.exp_year ?? 0,
    isDefault: card.id === defaultId,
  };
}

const INVOICE_STATUSES = ['paid', 'open', 'void', 'draft', 'uncollectible'] as const;

function toInvoice(invoice: Stripe.Invoice): Invoice {
  const status = INVOICE_STATUSES.find((known) => known === invoice.status) ?? 'draft';
  return {
    id: invoice.id ?? '',
    number: invoice.number ?? '',
    created: invoice.created,
    amount_paid: invoice.amount_paid,
    amount_due: invoice.amount_due,
    currency: invoice.currency,
    status,
    description: invoice.description ?? invoice.lines?.data[0]?.description ?? '',
    hosted_invoice_url: invoice.hosted_invoice_url ?? '',
    invoice_pdf: invoice.invoice_pdf ?? '',
  };
}

function latestInvoiceOf(subscription: Stripe.Subscription): Invoice | null {
  const invoice = subscription.latest_invoice;
  return invoice && typeof invoice === 'object' ? toInvoice(invoice) : null;
}

// ---- errors and keys ----

/** True when Stripe answered from its idempotency cache (the first answer to this key). */
function replayed(response: { lastResponse?: { headers: Record<string, string> } }): boolean {
  return response.lastResponse?.headers['idempotent-replayed'] === 'true';
}

function hash(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 32);
}

/** Stripe accepts keys up to 255 characters; longer ones are hashed, keeping them stable. */
function idempotencyKeyOf(key: string): string {
  return key.length <= 200 ? key : `${key.slice(0, 40)}:${hash(key)}`;
}

function isMissingResource(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing';
}

const INVALID_CARD_CODES = new Set([
  'expired_card',
  'incorrect_cvc',
  'incorrect_number',
  'invalid_cvc',
  'invalid_expiry_month',
  'invalid_expiry_year',
  'invalid_number',
]);

/** A refused card becomes a PaymentError carrying Stripe's own message (safe to show the owner). */
async function call<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeCardError) {
      const code =
        error.decline_code === 'insufficient_funds' || error.code === 'insufficient_funds'
          ? 'insufficient_funds'
          : error.code && INVALID_CARD_CODES.has(error.code)
            ? 'invalid_card'
            : 'card_declined';
      throw new PaymentError(error.message || billingMessages.cardDeclined, code);
    }
    throw error;
  }
}
