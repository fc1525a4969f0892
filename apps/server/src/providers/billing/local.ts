import { randomBytes } from 'node:crypto';
import {
  billingMessages,
  type Invoice,
  type PaymentMethod,
  type Pricing,
  type Subscription,
} from '@waitlist/contract';
import type { Database, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { BillingDetails, BillingProvider, CheckoutRequest } from './index.ts';
import {
  addToClockOffset,
  attachedCards,
  type CustomerRow,
  clearClockOffset,
  customersWithDuePeriodEnds,
  detachAllCards,
  endLiveSubscriptions,
  findCard,
  findCustomer,
  findInvoice,
  findSession,
  insertCard,
  insertCustomer,
  insertSession,
  insertSetupIntent,
  listInvoiceRows,
  liveSubscription,
  lockCustomer,
  lockSession,
  lockSetupIntent,
  markCardAttached,
  markCardDetached,
  markCheckoutComplete,
  markSetupIntentSucceeded,
  offsetMs,
  ownedCard,
  randomId,
  type SessionRow,
  type SubscriptionRow,
  setDefault,
  settleOpenInvoices,
  updateCustomerDetails,
  updateSubscription,
  voidOpenInvoices,
} from './local-billing.repo.ts';
import { toInvoice, toPaymentMethod, toSubscription } from './local-billing-dto.ts';
import { LOCAL_PRICES, priceOf } from './local-billing-math.ts';
import { type TestCardInput, validateTestCard } from './local-cards.ts';
import { applyPeriodEnds, changePlanIn, type PeriodEndOutcome } from './local-subscriptions.ts';
import { PaymentError } from './payment-error.ts';

export type { PeriodEndOutcome };

const CHECKOUT_TTL_MS = 24 * 60 * 60 * 1000;
const PORTAL_TTL_MS = 60 * 60 * 1000;

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
  async function billingNow(executor: Executor): Promise<Date> {
    return new Date(clock.now().getTime() + (await offsetMs(executor)));
  }
  const subscriptionContext = { publicUrl, billingNow };

  function expired(session: SessionRow) {
    return session.expiresAt <= clock.now();
  }

  async function storeCard(tx: Executor, customerId: string, card: TestCardInput) {
    const now = await billingNow(tx);
    const stored = validateTestCard(card, now);
    return insertCard(tx, { id: randomId('pm'), customerId, ...stored, attachedAt: now, createdAt: now });
  }

  /** Cancelling and resuming: the customer's live subscription changed, or not_found when there is none. */
  function changeLiveSubscription(
    customerId: string,
    changes: Pick<SubscriptionRow, 'cancelAtPeriodEnd'> &
      Partial<Pick<SubscriptionRow, 'pendingPlan' | 'pendingBillingPeriod'>>,
  ) {
    return db.transaction(async (tx) => {
      await lockCustomer(tx, customerId);
      const current = await liveSubscription(tx, customerId);
      if (!current) throw new PaymentError(billingMessages.noSubscription, 'not_found');
      return toSubscription(await updateSubscription(tx, current.id, changes));
    });
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
      await insertCustomer(db, {
        id,
        email: user.email,
        name: user.name,
        invoicePrefix: randomBytes(4).toString('hex').toUpperCase(),
        createdAt: clock.now(),
      });
      return id;
    },

    async updateCustomer(customerId, details) {
      const changes: Partial<Pick<CustomerRow, 'name' | 'email' | 'address'>> = {};
      if (details.name !== undefined) changes.name = details.name;
      if (details.email !== undefined) changes.email = details.email;
      if (details.address !== undefined) changes.address = details.address;
      if (Object.keys(changes).length === 0) return;
      await updateCustomerDetails(db, customerId, changes);
    },

    async createSetupIntent(customerId) {
      const id = randomId('seti');
      const clientSecret = `${id}_secret_${randomBytes(18).toString('base64url')}`;
      await insertSetupIntent(db, {
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
        const intent = await lockSetupIntent(tx, clientSecret);
        if (!intent || intent.customerId !== customerId || intent.status !== 'requires_payment_method') {
          throw new PaymentError(billingMessages.setupIntentInvalid, 'invalid_card');
        }
        const paymentMethod = await storeCard(tx, customerId, card);
        await markSetupIntentSucceeded(tx, intent.id, paymentMethod.id);
        if (!customer.defaultPaymentMethodId) {
          await setDefault(tx, customerId, paymentMethod.id);
          await settleOpenInvoices(tx, customerId, billingNow);
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
          await markCardAttached(tx, card.id, await billingNow(tx));
        }
        if (!customer.defaultPaymentMethodId) {
          await setDefault(tx, customerId, card.id);
          await settleOpenInvoices(tx, customerId, billingNow);
        }
      });
    },

    async detachPaymentMethod(customerId, paymentMethodId) {
      await db.transaction(async (tx) => {
        const customer = await lockCustomer(tx, customerId);
        const card = await ownedCard(tx, customerId, paymentMethodId);
        await markCardDetached(tx, card.id, await billingNow(tx));
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
        await settleOpenInvoices(tx, customerId, billingNow);
      });
    },

    async listInvoices(customerId) {
      return (await listInvoiceRows(db, customerId)).map((row) => toInvoice(row, publicUrl));
    },

    async getSubscription(customerId) {
      const row = await liveSubscription(db, customerId);
      return row ? toSubscription(row) : null;
    },

    changePlan(customerId, change, idempotencyKey) {
      return db.transaction((tx) =>
        changePlanIn(subscriptionContext, tx, customerId, change, idempotencyKey),
      );
    },

    cancelAtPeriodEnd(customerId) {
      // Cancelling withdraws a scheduled downgrade: nothing follows the end of this period.
      return changeLiveSubscription(customerId, {
        cancelAtPeriodEnd: true,
        pendingPlan: null,
        pendingBillingPeriod: null,
      });
    },

    resume(customerId) {
      return changeLiveSubscription(customerId, { cancelAtPeriodEnd: false });
    },

    async createCheckoutSession(customerId, session: CheckoutRequest) {
      const id = randomId('cs', 24);
      const now = clock.now();
      await insertSession(db, {
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
      await insertSession(db, {
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
        await endLiveSubscriptions(tx, customerId, now);
        await voidOpenInvoices(tx, customerId);
        await detachAllCards(tx, customerId, now);
        await setDefault(tx, customerId, null);
      });
    },

    // ---- local only ----
    now: () => billingNow(db),
    clockOffsetMs: () => offsetMs(db),

    async advanceClock(ms) {
      await addToClockOffset(db, ms);
      return billingNow(db);
    },

    async resetClock() {
      await clearClockOffset(db);
      return billingNow(db);
    },

    async applyDuePeriodEnds() {
      const now = await billingNow(db);
      const outcomes: PeriodEndOutcome[] = [];
      const seen = new Set<string>();
      for (;;) {
        const due = await customersWithDuePeriodEnds(db, now, 50);
        const fresh = due.filter((row) => !seen.has(row.customerId));
        if (fresh.length === 0) return outcomes;
        for (const { customerId } of fresh) {
          seen.add(customerId);
          outcomes.push(
            ...(await db.transaction((tx) => applyPeriodEnds(subscriptionContext, tx, customerId, now))),
          );
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
        const session = await lockSession(tx, id, 'checkout');
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
          subscriptionContext,
          tx,
          session.customerId,
          { plan: session.plan, billingPeriod: session.billingPeriod },
          `checkout:${session.id}`,
        );
        await markCheckoutComplete(tx, session.id, result.subscription.id);
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
        invoices: (await listInvoiceRows(db, customer.id)).map((row) => toInvoice(row, publicUrl)),
      };
    },

    async findInvoiceDocument(id) {
      const row = await findInvoice(db, id);
      if (!row) return undefined;
      const customer = await findCustomer(db, row.customerId);
      const card = row.paymentMethodId ? await findCard(db, row.paymentMethodId) : undefined;
      return {
        invoice: toInvoice(row, publicUrl),
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
