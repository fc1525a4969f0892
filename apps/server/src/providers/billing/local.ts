import { randomBytes } from 'node:crypto';
import {
  billingMessages,
  type Invoice,
  type PaymentMethod,
  type Pricing,
  planLabels,
  type Subscription,
} from '@waitlist/contract';
import { and, asc, desc, eq, isNotNull, isNull, lte, ne, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import {
  localBillingClock,
  localBillingCustomers,
  localBillingInvoices,
  localBillingPaymentMethods,
  localBillingSessions,
  localBillingSetupIntents,
  localBillingSubscriptions,
} from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { formatDate, formatMoney } from '../../lib/format.ts';
import type {
  BillingDetails,
  BillingProvider,
  CheckoutRequest,
  PlanChange,
  PlanChangeResult,
} from './index.ts';
import { addPeriod, LOCAL_PRICES, nextPeriodEnd, priceOf, prorate } from './local-billing-math.ts';
import { chargeRefusal, type TestCardInput, validateTestCard } from './local-cards.ts';
import { PaymentError } from './payment-error.ts';

type CustomerRow = typeof localBillingCustomers.$inferSelect;
type SubscriptionRow = typeof localBillingSubscriptions.$inferSelect;
type InvoiceRow = typeof localBillingInvoices.$inferSelect;
type PaymentMethodRow = typeof localBillingPaymentMethods.$inferSelect;
type SessionRow = typeof localBillingSessions.$inferSelect;

const CHECKOUT_TTL_MS = 24 * 60 * 60 * 1000;
const PORTAL_TTL_MS = 60 * 60 * 1000;
const MAX_PERIODS_PER_PASS = 1000;

/** What happened to a subscription at the end of a period (the worker syncs the user and emails from it). */
export interface PeriodEndOutcome {
  customerId: string;
  kind: 'renewed' | 'changed' | 'payment_failed' | 'canceled';
  subscription: Subscription;
  invoice: Invoice | null;
}

export interface CheckoutSessionView {
  id: string;
  status: 'open' | 'complete' | 'expired';
  customerEmail: string;
  plan: 'starter' | 'growth';
  billingPeriod: 'monthly' | 'yearly';
  amount: number;
  currency: string;
  cancelUrl: string;
}

export interface PortalView {
  customerEmail: string;
  returnUrl: string;
  subscription: Subscription | null;
  paymentMethods: PaymentMethod[];
  invoices: Invoice[];
}

export interface InvoiceDocument {
  invoice: Invoice;
  customer: { name: string; email: string; address: BillingDetails['address'] | null };
  periodStart: Date | null;
  periodEnd: Date | null;
  paidAt: Date | null;
  card: { brand: string; last4: string } | null;
}

/** The local provider: the BillingProvider interface plus the controls only test-card billing has. */
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

const randomId = (prefix: string, bytes = 12) => `${prefix}_${randomBytes(bytes).toString('base64url')}`;
const toSeconds = (date: Date) => Math.floor(date.getTime() / 1000);
const periodLabel = (plan: 'starter' | 'growth', period: 'monthly' | 'yearly') =>
  `${planLabels[plan]} (${period})`;

export function isLocalBillingProvider(provider: BillingProvider): provider is LocalBillingProvider {
  return provider.name === 'local';
}

export function createLocalBillingProvider(deps: {
  db: Database;
  clock: Clock;
  publicUrl: string;
}): LocalBillingProvider {
  const { db, clock, publicUrl } = deps;

  // ---- the billing clock ----
  async function offsetMs(executor: Executor): Promise<number> {
    const [row] = await executor
      .select({ offsetMs: localBillingClock.offsetMs })
      .from(localBillingClock)
      .where(eq(localBillingClock.id, 1));
    return row?.offsetMs ?? 0;
  }
  async function billingNow(executor: Executor): Promise<Date> {
    return new Date(clock.now().getTime() + (await offsetMs(executor)));
  }

  // ---- mapping rows to the API's shapes ----
  function toSubscription(row: SubscriptionRow): Subscription {
    return {
      id: row.id,
      status: row.status,
      plan: row.plan,
      billingPeriod: row.billingPeriod,
      cancel_at_period_end: row.cancelAtPeriodEnd,
      current_period_start: toSeconds(row.currentPeriodStart),
      current_period_end: toSeconds(row.currentPeriodEnd),
      created: toSeconds(row.createdAt),
      pending_change:
        row.pendingPlan && row.pendingBillingPeriod
          ? {
              plan: row.pendingPlan,
              billingPeriod: row.pendingBillingPeriod,
              effective_at: toSeconds(row.currentPeriodEnd),
            }
          : null,
    };
  }
  function toInvoice(row: InvoiceRow): Invoice {
    const hosted = `${publicUrl}/billing/local/invoices/${encodeURIComponent(row.id)}`;
    return {
      id: row.id,
      number: row.number,
      created: toSeconds(row.createdAt),
      amount_paid: row.amountPaid,
      amount_due: row.amountDue,
      currency: row.currency,
      status: row.status,
      description: row.description,
      hosted_invoice_url: hosted,
      invoice_pdf: `${hosted}/pdf`,
    };
  }
  function toPaymentMethod(row: PaymentMethodRow, defaultId: string | null): PaymentMethod {
    return {
      id: row.id,
      brand: row.brand,
      last4: row.last4,
      exp_month: row.expMonth,
      exp_year: row.expYear,
      isDefault: row.id === defaultId,
    };
  }

  // ---- queries ----
  /** Reads and locks the customer row: one customer's changes and charges run one at a time. */
  async function lockCustomer(tx: Executor, customerId: string): Promise<CustomerRow> {
    const [row] = await tx
      .select()
      .from(localBillingCustomers)
      .where(eq(localBillingCustomers.id, customerId))
      .for('update');
    if (!row) throw new PaymentError(billingMessages.noSubscription, 'not_found');
    return row;
  }
  async function findCustomer(executor: Executor, customerId: string) {
    const [row] = await executor
      .select()
      .from(localBillingCustomers)
      .where(eq(localBillingCustomers.id, customerId));
    return row;
  }
  async function liveSubscription(executor: Executor, customerId: string) {
    const [row] = await executor
      .select()
      .from(localBillingSubscriptions)
      .where(
        and(
          eq(localBillingSubscriptions.customerId, customerId),
          ne(localBillingSubscriptions.status, 'canceled'),
        ),
      );
    return row;
  }
  async function attachedCards(executor: Executor, customerId: string) {
    return executor
      .select()
      .from(localBillingPaymentMethods)
      .where(
        and(
          eq(localBillingPaymentMethods.customerId, customerId),
          isNotNull(localBillingPaymentMethods.attachedAt),
          isNull(localBillingPaymentMethods.detachedAt),
        ),
      )
      .orderBy(desc(localBillingPaymentMethods.position));
  }
  async function ownedCard(executor: Executor, customerId: string, paymentMethodId: string) {
    const [row] = await executor
      .select()
      .from(localBillingPaymentMethods)
      .where(
        and(
          eq(localBillingPaymentMethods.id, paymentMethodId),
          eq(localBillingPaymentMethods.customerId, customerId),
          isNull(localBillingPaymentMethods.detachedAt),
        ),
      );
    if (!row) throw new PaymentError(billingMessages.paymentMethodNotFound, 'not_found');
    return row;
  }
  async function listInvoiceRows(executor: Executor, customerId: string) {
    return executor
      .select()
      .from(localBillingInvoices)
      .where(eq(localBillingInvoices.customerId, customerId))
      .orderBy(desc(localBillingInvoices.createdAt), desc(localBillingInvoices.number));
  }
  function setDefault(tx: Executor, customerId: string, paymentMethodId: string | null) {
    return tx
      .update(localBillingCustomers)
      .set({ defaultPaymentMethodId: paymentMethodId })
      .where(eq(localBillingCustomers.id, customerId));
  }

  // ---- charging ----
  /**
   * Creates the invoice for `amount` under `idempotencyKey` and pays it with the default card. The same key
   * returns the invoice it created the first time and charges nothing more. A refused card throws (a plan
   * change is then not applied), unless `leaveOpen`: renewals keep an open invoice and go past_due.
   */
  async function charge(
    tx: Executor,
    customer: CustomerRow,
    amount: number,
    line: {
      idempotencyKey: string;
      subscriptionId: string;
      description: string;
      periodStart: Date;
      periodEnd: Date;
      at: Date;
      leaveOpen?: boolean;
    },
  ): Promise<{ invoice: InvoiceRow; paid: boolean }> {
    const [existing] = await tx
      .select()
      .from(localBillingInvoices)
      .where(eq(localBillingInvoices.idempotencyKey, line.idempotencyKey));
    if (existing) return { invoice: existing, paid: existing.status === 'paid' };

    const card = customer.defaultPaymentMethodId
      ? await ownedCard(tx, customer.id, customer.defaultPaymentMethodId).catch(() => undefined)
      : undefined;
    const refusal =
      amount === 0 ? null : card ? chargeRefusal(card, line.at) : (billingMessages.noPaymentMethod as string);
    if (refusal && !line.leaveOpen) {
      throw new PaymentError(refusal, card ? 'card_declined' : 'no_payment_method');
    }
    const [numbered] = await tx
      .update(localBillingCustomers)
      .set({ nextInvoiceNumber: sql`${localBillingCustomers.nextInvoiceNumber} + 1` })
      .where(eq(localBillingCustomers.id, customer.id))
      .returning({ next: localBillingCustomers.nextInvoiceNumber });
    const sequence = numbered!.next - 1;
    const paid = refusal === null;
    const [invoice] = await tx
      .insert(localBillingInvoices)
      .values({
        id: randomId('in', 24),
        customerId: customer.id,
        subscriptionId: line.subscriptionId,
        number: `${customer.invoicePrefix}-${String(sequence).padStart(4, '0')}`,
        status: paid ? 'paid' : 'open',
        amountDue: amount,
        amountPaid: paid ? amount : 0,
        currency: 'usd',
        description: line.description,
        paymentMethodId: card?.id ?? null,
        periodStart: line.periodStart,
        periodEnd: line.periodEnd,
        idempotencyKey: line.idempotencyKey,
        createdAt: line.at,
        paidAt: paid ? line.at : null,
      })
      .returning();
    return { invoice: invoice!, paid };
  }

  /**
   * After the default card changes: pays the customer's open invoices with it (as Stripe retries them), and
   * a past_due subscription with nothing left open becomes active again.
   */
  async function settleOpenInvoices(tx: Executor, customerId: string) {
    const customer = await lockCustomer(tx, customerId);
    if (!customer.defaultPaymentMethodId) return;
    const card = await ownedCard(tx, customerId, customer.defaultPaymentMethodId);
    const now = await billingNow(tx);
    if (chargeRefusal(card, now)) return;
    await tx
      .update(localBillingInvoices)
      .set({
        status: 'paid',
        amountPaid: sql`${localBillingInvoices.amountDue}`,
        paidAt: now,
        paymentMethodId: card.id,
      })
      .where(and(eq(localBillingInvoices.customerId, customerId), eq(localBillingInvoices.status, 'open')));
    await tx
      .update(localBillingSubscriptions)
      .set({ status: 'active' })
      .where(
        and(
          eq(localBillingSubscriptions.customerId, customerId),
          eq(localBillingSubscriptions.status, 'past_due'),
        ),
      );
  }

  async function openInvoiceCount(tx: Executor, customerId: string) {
    const [row] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(localBillingInvoices)
      .where(and(eq(localBillingInvoices.customerId, customerId), eq(localBillingInvoices.status, 'open')));
    return row?.count ?? 0;
  }

  // ---- plan changes ----
  async function changePlanIn(
    tx: Executor,
    customerId: string,
    change: PlanChange,
    idempotencyKey: string,
  ): Promise<PlanChangeResult> {
    const customer = await lockCustomer(tx, customerId);
    const [replayed] = await tx
      .select()
      .from(localBillingInvoices)
      .where(eq(localBillingInvoices.idempotencyKey, idempotencyKey));
    const current = await liveSubscription(tx, customerId);
    if (replayed) {
      // The same request again (a double submit): the first one's answer, and no second charge.
      if (!current) throw new PaymentError(billingMessages.noSubscription, 'not_found');
      return { subscription: toSubscription(current), effective: 'now', invoice: toInvoice(replayed) };
    }
    const now = await billingNow(tx);
    const newPrice = priceOf(change.plan, change.billingPeriod);
    const target = periodLabel(change.plan, change.billingPeriod);

    if (!current) {
      // Trial (or a subscription that ended) → paid: the full price, and the first period starts now.
      const end = addPeriod(now, change.billingPeriod);
      const subscriptionId = randomId('sub');
      const { invoice } = await charge(tx, customer, newPrice, {
        idempotencyKey,
        subscriptionId,
        description: `${target}, ${formatDate(now)} – ${formatDate(end)}`,
        periodStart: now,
        periodEnd: end,
        at: now,
      });
      const [created] = await tx
        .insert(localBillingSubscriptions)
        .values({
          id: subscriptionId,
          customerId,
          plan: change.plan,
          billingPeriod: change.billingPeriod,
          status: 'active',
          currentPeriodStart: now,
          currentPeriodEnd: end,
          billingCycleAnchor: now,
          createdAt: now,
        })
        .returning();
      return { subscription: toSubscription(created!), effective: 'now', invoice: toInvoice(invoice) };
    }

    if (current.plan === change.plan && current.billingPeriod === change.billingPeriod) {
      // The current plan again: nothing is charged; a scheduled change to another plan is dropped.
      const [kept] = await tx
        .update(localBillingSubscriptions)
        .set({ pendingPlan: null, pendingBillingPeriod: null })
        .where(eq(localBillingSubscriptions.id, current.id))
        .returning();
      return { subscription: toSubscription(kept!), effective: 'none', invoice: null };
    }

    const oldPrice = priceOf(current.plan, current.billingPeriod);
    if (newPrice <= oldPrice) {
      // To a cheaper price: at the end of the period. Choosing a plan also withdraws a pending cancellation.
      const [scheduled] = await tx
        .update(localBillingSubscriptions)
        .set({
          pendingPlan: change.plan,
          pendingBillingPeriod: change.billingPeriod,
          cancelAtPeriodEnd: false,
        })
        .where(eq(localBillingSubscriptions.id, current.id))
        .returning();
      return { subscription: toSubscription(scheduled!), effective: 'period_end', invoice: null };
    }

    // To a more expensive price: now, prorated.
    const samePeriod = current.billingPeriod === change.billingPeriod;
    const proration = prorate({
      oldPrice,
      newPrice,
      samePeriod,
      periodStart: current.currentPeriodStart,
      periodEnd: current.currentPeriodEnd,
      now,
    });
    const start = proration.restartsPeriod ? now : current.currentPeriodStart;
    const end = proration.restartsPeriod ? addPeriod(now, change.billingPeriod) : current.currentPeriodEnd;
    const from = periodLabel(current.plan, current.billingPeriod);
    const description = proration.restartsPeriod
      ? `${target}, ${formatDate(start)} – ${formatDate(end)}, less ${formatMoney(proration.credit)} unused time on ${from}`
      : `${from} → ${target}, prorated for the rest of the period to ${formatDate(end)}`;
    const { invoice } = await charge(tx, customer, proration.amount, {
      idempotencyKey,
      subscriptionId: current.id,
      description,
      periodStart: proration.restartsPeriod ? start : now,
      periodEnd: end,
      at: now,
    });
    const [upgraded] = await tx
      .update(localBillingSubscriptions)
      .set({
        plan: change.plan,
        billingPeriod: change.billingPeriod,
        currentPeriodStart: start,
        currentPeriodEnd: end,
        billingCycleAnchor: proration.restartsPeriod ? now : current.billingCycleAnchor,
        pendingPlan: null,
        pendingBillingPeriod: null,
        cancelAtPeriodEnd: false,
        status: (await openInvoiceCount(tx, customerId)) > 0 ? 'past_due' : 'active',
      })
      .where(eq(localBillingSubscriptions.id, current.id))
      .returning();
    return { subscription: toSubscription(upgraded!), effective: 'now', invoice: toInvoice(invoice) };
  }

  // ---- period ends ----
  async function applyPeriodEnds(tx: Executor, customerId: string, now: Date): Promise<PeriodEndOutcome[]> {
    const customer = await lockCustomer(tx, customerId);
    const outcomes: PeriodEndOutcome[] = [];
    let subscription = await liveSubscription(tx, customerId);
    for (let step = 0; subscription && subscription.currentPeriodEnd <= now; step += 1) {
      if (step >= MAX_PERIODS_PER_PASS) break;
      const endedAt = subscription.currentPeriodEnd;
      if (subscription.cancelAtPeriodEnd || subscription.status === 'past_due') {
        // Cancelled by the owner, or a whole period went unpaid: the subscription ends here.
        await tx
          .update(localBillingInvoices)
          .set({ status: 'void' })
          .where(
            and(eq(localBillingInvoices.customerId, customerId), eq(localBillingInvoices.status, 'open')),
          );
        const [ended] = await tx
          .update(localBillingSubscriptions)
          .set({ status: 'canceled', endedAt, pendingPlan: null, pendingBillingPeriod: null })
          .where(eq(localBillingSubscriptions.id, subscription.id))
          .returning();
        outcomes.push({ customerId, kind: 'canceled', subscription: toSubscription(ended!), invoice: null });
        break;
      }
      const changed = subscription.pendingPlan !== null && subscription.pendingBillingPeriod !== null;
      const plan = subscription.pendingPlan ?? subscription.plan;
      const period = subscription.pendingBillingPeriod ?? subscription.billingPeriod;
      const anchor = changed ? endedAt : subscription.billingCycleAnchor;
      const end = changed ? addPeriod(endedAt, period) : nextPeriodEnd(anchor, period, endedAt);
      const { invoice, paid } = await charge(tx, customer, priceOf(plan, period), {
        idempotencyKey: `renewal:${subscription.id}:${endedAt.getTime()}`,
        subscriptionId: subscription.id,
        description: `${periodLabel(plan, period)}, ${formatDate(endedAt)} – ${formatDate(end)}`,
        periodStart: endedAt,
        periodEnd: end,
        at: endedAt,
        leaveOpen: true,
      });
      const [renewed] = await tx
        .update(localBillingSubscriptions)
        .set({
          plan,
          billingPeriod: period,
          currentPeriodStart: endedAt,
          currentPeriodEnd: end,
          billingCycleAnchor: anchor,
          pendingPlan: null,
          pendingBillingPeriod: null,
          status: paid ? 'active' : 'past_due',
        })
        .where(eq(localBillingSubscriptions.id, subscription.id))
        .returning();
      subscription = renewed!;
      outcomes.push({
        customerId,
        kind: !paid ? 'payment_failed' : changed ? 'changed' : 'renewed',
        subscription: toSubscription(subscription),
        invoice: toInvoice(invoice),
      });
    }
    return outcomes;
  }

  function expired(session: SessionRow) {
    return session.expiresAt <= clock.now();
  }

  async function findSession(executor: Executor, id: string, kind: SessionRow['kind']) {
    const [row] = await executor
      .select()
      .from(localBillingSessions)
      .where(and(eq(localBillingSessions.id, id), eq(localBillingSessions.kind, kind)));
    return row;
  }

  async function storeCard(tx: Executor, customerId: string, card: TestCardInput) {
    const now = await billingNow(tx);
    const stored = validateTestCard(card, now);
    const [row] = await tx
      .insert(localBillingPaymentMethods)
      .values({ id: randomId('pm'), customerId, ...stored, attachedAt: now, createdAt: now })
      .returning();
    return row!;
  }

  return {
    name: 'local',
    configured: true,
    publishableKey: null,

    async getPricing(): Promise<Pricing> {
      return LOCAL_PRICES;
    },

    async createCustomer(user) {
      const id = randomId('cus');
      await db.insert(localBillingCustomers).values({
        id,
        email: user.email,
        name: user.name,
        invoicePrefix: randomBytes(4).toString('hex').toUpperCase(),
        createdAt: clock.now(),
      });
      return id;
    },

    async updateCustomer(customerId, details) {
      const changes: Partial<CustomerRow> = {};
      if (details.name !== undefined) changes.name = details.name;
      if (details.email !== undefined) changes.email = details.email;
      if (details.address !== undefined) changes.address = details.address;
      if (Object.keys(changes).length === 0) return;
      await db.update(localBillingCustomers).set(changes).where(eq(localBillingCustomers.id, customerId));
    },

    async createSetupIntent(customerId) {
      const id = randomId('seti');
      const clientSecret = `${id}_secret_${randomBytes(18).toString('base64url')}`;
      await db.insert(localBillingSetupIntents).values({
        id,
        customerId,
        clientSecret,
        status: 'requires_payment_method',
        createdAt: clock.now(),
      });
      return { clientSecret };
    },

    async confirmSetupIntent(customerId, clientSecret, card) {
      return db.transaction(async (tx) => {
        const customer = await lockCustomer(tx, customerId);
        const [intent] = await tx
          .select()
          .from(localBillingSetupIntents)
          .where(eq(localBillingSetupIntents.clientSecret, clientSecret))
          .for('update');
        if (!intent || intent.customerId !== customerId || intent.status !== 'requires_payment_method') {
          throw new PaymentError(billingMessages.setupIntentInvalid, 'invalid_card');
        }
        const paymentMethod = await storeCard(tx, customerId, card);
        await tx
          .update(localBillingSetupIntents)
          .set({ status: 'succeeded', paymentMethodId: paymentMethod.id })
          .where(eq(localBillingSetupIntents.id, intent.id));
        if (!customer.defaultPaymentMethodId) {
          await setDefault(tx, customerId, paymentMethod.id);
          await settleOpenInvoices(tx, customerId);
        }
        return { paymentMethodId: paymentMethod.id };
      });
    },

    async listPaymentMethods(customerId) {
      const customer = await findCustomer(db, customerId);
      if (!customer) return [];
      const cards = await attachedCards(db, customerId);
      return cards.map((card) => toPaymentMethod(card, customer.defaultPaymentMethodId));
    },

    async attachPaymentMethod(customerId, paymentMethodId) {
      await db.transaction(async (tx) => {
        const customer = await lockCustomer(tx, customerId);
        const card = await ownedCard(tx, customerId, paymentMethodId);
        if (!card.attachedAt) {
          await tx
            .update(localBillingPaymentMethods)
            .set({ attachedAt: await billingNow(tx) })
            .where(eq(localBillingPaymentMethods.id, card.id));
        }
        if (!customer.defaultPaymentMethodId) {
          await setDefault(tx, customerId, card.id);
          await settleOpenInvoices(tx, customerId);
        }
      });
    },

    async detachPaymentMethod(customerId, paymentMethodId) {
      await db.transaction(async (tx) => {
        const customer = await lockCustomer(tx, customerId);
        const card = await ownedCard(tx, customerId, paymentMethodId);
        await tx
          .update(localBillingPaymentMethods)
          .set({ detachedAt: await billingNow(tx) })
          .where(eq(localBillingPaymentMethods.id, card.id));
        if (customer.defaultPaymentMethodId === card.id) {
          const [newest] = await attachedCards(tx, customerId);
          await setDefault(tx, customerId, newest?.id ?? null);
        }
      });
    },

    async setDefaultPaymentMethod(customerId, paymentMethodId) {
      await db.transaction(async (tx) => {
        await lockCustomer(tx, customerId);
        const card = await ownedCard(tx, customerId, paymentMethodId);
        if (!card.attachedAt) throw new PaymentError(billingMessages.paymentMethodNotFound, 'not_found');
        await setDefault(tx, customerId, card.id);
        await settleOpenInvoices(tx, customerId);
      });
    },

    async listInvoices(customerId) {
      return (await listInvoiceRows(db, customerId)).map(toInvoice);
    },

    async getSubscription(customerId) {
      const row = await liveSubscription(db, customerId);
      return row ? toSubscription(row) : null;
    },

    changePlan(customerId, change, idempotencyKey) {
      return db.transaction((tx) => changePlanIn(tx, customerId, change, idempotencyKey));
    },

    async cancelAtPeriodEnd(customerId) {
      return db.transaction(async (tx) => {
        await lockCustomer(tx, customerId);
        const current = await liveSubscription(tx, customerId);
        if (!current) throw new PaymentError(billingMessages.noSubscription, 'not_found');
        // Cancelling withdraws a scheduled downgrade: nothing follows the end of this period.
        const [row] = await tx
          .update(localBillingSubscriptions)
          .set({ cancelAtPeriodEnd: true, pendingPlan: null, pendingBillingPeriod: null })
          .where(eq(localBillingSubscriptions.id, current.id))
          .returning();
        return toSubscription(row!);
      });
    },

    async resume(customerId) {
      return db.transaction(async (tx) => {
        await lockCustomer(tx, customerId);
        const current = await liveSubscription(tx, customerId);
        if (!current) throw new PaymentError(billingMessages.noSubscription, 'not_found');
        const [row] = await tx
          .update(localBillingSubscriptions)
          .set({ cancelAtPeriodEnd: false })
          .where(eq(localBillingSubscriptions.id, current.id))
          .returning();
        return toSubscription(row!);
      });
    },

    async createCheckoutSession(customerId, session: CheckoutRequest) {
      const id = randomId('cs', 24);
      const now = clock.now();
      await db.insert(localBillingSessions).values({
        id,
        kind: 'checkout',
        customerId,
        plan: session.plan,
        billingPeriod: session.billingPeriod,
        successUrl: session.successUrl,
        cancelUrl: session.cancelUrl,
        createdAt: now,
        expiresAt: new Date(now.getTime() + CHECKOUT_TTL_MS),
      });
      return { id, url: `${publicUrl}/billing/local/checkout/${id}` };
    },

    async createPortalSession(customerId, returnUrl) {
      const id = randomId('bps', 24);
      const now = clock.now();
      await db.insert(localBillingSessions).values({
        id,
        kind: 'portal',
        customerId,
        returnUrl,
        createdAt: now,
        expiresAt: new Date(now.getTime() + PORTAL_TTL_MS),
      });
      return { id, url: `${publicUrl}/billing/local/portal/${id}` };
    },

    async deleteCustomer(customerId) {
      await db.transaction(async (tx) => {
        await lockCustomer(tx, customerId);
        const now = await billingNow(tx);
        await tx
          .update(localBillingSubscriptions)
          .set({
            status: 'canceled',
            endedAt: now,
            cancelAtPeriodEnd: false,
            pendingPlan: null,
            pendingBillingPeriod: null,
          })
          .where(
            and(
              eq(localBillingSubscriptions.customerId, customerId),
              ne(localBillingSubscriptions.status, 'canceled'),
            ),
          );
        await tx
          .update(localBillingInvoices)
          .set({ status: 'void' })
          .where(
            and(eq(localBillingInvoices.customerId, customerId), eq(localBillingInvoices.status, 'open')),
          );
        await tx
          .update(localBillingPaymentMethods)
          .set({ detachedAt: now })
          .where(
            and(
              eq(localBillingPaymentMethods.customerId, customerId),
              isNull(localBillingPaymentMethods.detachedAt),
            ),
          );
        await setDefault(tx, customerId, null);
      });
    },

    // ---- local only ----
    now: () => billingNow(db),
    clockOffsetMs: () => offsetMs(db),

    async advanceClock(ms) {
      await db
        .insert(localBillingClock)
        .values({ id: 1, offsetMs: ms })
        .onConflictDoUpdate({
          target: localBillingClock.id,
          set: { offsetMs: sql`${localBillingClock.offsetMs} + ${ms}` },
        });
      return billingNow(db);
    },

    async resetClock() {
      await db.delete(localBillingClock);
      return billingNow(db);
    },

    async applyDuePeriodEnds() {
      const now = await billingNow(db);
      const outcomes: PeriodEndOutcome[] = [];
      const seen = new Set<string>();
      for (;;) {
        const due = await db
          .select({ customerId: localBillingSubscriptions.customerId })
          .from(localBillingSubscriptions)
          .where(
            and(
              ne(localBillingSubscriptions.status, 'canceled'),
              lte(localBillingSubscriptions.currentPeriodEnd, now),
            ),
          )
          .orderBy(asc(localBillingSubscriptions.currentPeriodEnd))
          .limit(50);
        const fresh = due.filter((row) => !seen.has(row.customerId));
        if (fresh.length === 0) return outcomes;
        for (const { customerId } of fresh) {
          seen.add(customerId);
          outcomes.push(...(await db.transaction((tx) => applyPeriodEnds(tx, customerId, now))));
        }
      }
    },

    async findCheckoutSession(id) {
      const session = await findSession(db, id, 'checkout');
      if (!session?.plan || !session.billingPeriod) return undefined;
      const customer = await findCustomer(db, session.customerId);
      return {
        id: session.id,
        status: session.status === 'complete' ? 'complete' : expired(session) ? 'expired' : 'open',
        customerEmail: customer?.email ?? '',
        plan: session.plan,
        billingPeriod: session.billingPeriod,
        amount: priceOf(session.plan, session.billingPeriod),
        currency: 'usd',
        cancelUrl: session.cancelUrl ?? publicUrl,
      };
    },

    async completeCheckout(id, card) {
      return db.transaction(async (tx) => {
        const [session] = await tx
          .select()
          .from(localBillingSessions)
          .where(and(eq(localBillingSessions.id, id), eq(localBillingSessions.kind, 'checkout')))
          .for('update');
        if (!session?.plan || !session.billingPeriod) {
          throw new PaymentError(billingMessages.invalidSessionId, 'not_found');
        }
        const redirectUrl = (session.successUrl ?? publicUrl).replace('{CHECKOUT_SESSION_ID}', session.id);
        if (session.status === 'complete') {
          // Paid already (the form sent twice, or the page reloaded): back to the success page, no charge.
          const current = await liveSubscription(tx, session.customerId);
          return {
            customerId: session.customerId,
            subscription: current ? toSubscription(current) : null,
            redirectUrl,
          };
        }
        if (expired(session)) throw new PaymentError(billingMessages.invalidSessionId, 'not_found');
        await lockCustomer(tx, session.customerId);
        const paymentMethod = await storeCard(tx, session.customerId, card);
        await setDefault(tx, session.customerId, paymentMethod.id);
        const result = await changePlanIn(
          tx,
          session.customerId,
          { plan: session.plan, billingPeriod: session.billingPeriod },
          `checkout:${session.id}`,
        );
        await tx
          .update(localBillingSessions)
          .set({ status: 'complete', subscriptionId: result.subscription.id })
          .where(eq(localBillingSessions.id, session.id));
        return { customerId: session.customerId, subscription: result.subscription, redirectUrl };
      });
    },

    async findPortal(id) {
      const session = await findSession(db, id, 'portal');
      if (!session || expired(session)) return undefined;
      const customer = await findCustomer(db, session.customerId);
      if (!customer) return undefined;
      const subscription = await liveSubscription(db, customer.id);
      const cards = await attachedCards(db, customer.id);
      return {
        customerEmail: customer.email,
        returnUrl: session.returnUrl ?? publicUrl,
        subscription: subscription ? toSubscription(subscription) : null,
        paymentMethods: cards.map((card) => toPaymentMethod(card, customer.defaultPaymentMethodId)),
        invoices: (await listInvoiceRows(db, customer.id)).map(toInvoice),
      };
    },

    async findInvoiceDocument(id) {
      const [row] = await db.select().from(localBillingInvoices).where(eq(localBillingInvoices.id, id));
      if (!row) return undefined;
      const customer = await findCustomer(db, row.customerId);
      const [card] = row.paymentMethodId
        ? await db
            .select()
            .from(localBillingPaymentMethods)
            .where(eq(localBillingPaymentMethods.id, row.paymentMethodId))
        : [];
      return {
        invoice: toInvoice(row),
        customer: {
          name: customer?.name ?? '',
          email: customer?.email ?? '',
          address: (customer?.address as BillingDetails['address']) ?? null,
        },
        periodStart: row.periodStart,
        periodEnd: row.periodEnd,
        paidAt: row.paidAt,
        card: card ? { brand: card.brand, last4: card.last4 } : null,
      };
    },
  };
}
