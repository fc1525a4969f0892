import { billingMessages } from '@waitlist/contract';
import type { CheckoutRequest } from './index.ts';
import type { LocalBillingProvider } from './local.ts';
import {
  findCustomer,
  findSession,
  insertSession,
  liveSubscription,
  lockCustomer,
  lockSession,
  markCheckoutComplete,
  randomId,
  type SessionRow,
  setDefault,
} from './local-billing.repo.ts';
import type { LocalBillingContext } from './local-billing-clock.ts';
import { toSubscription } from './local-billing-dto.ts';
import { priceOf } from './local-billing-math.ts';
import { storeCard } from './local-payment-methods.ts';
import { changePlanIn } from './local-subscriptions.ts';
import { PaymentError } from './payment-error.ts';

const CHECKOUT_TTL_MS = 24 * 60 * 60 * 1000;

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

/** Hosted sessions expire by the real clock, not the billing clock. */
export function sessionExpired({ clock }: Pick<LocalBillingContext, 'clock'>, session: SessionRow) {
  return session.expiresAt <= clock.now();
}

/**
 * The local "hosted" checkout page (/billing/local/checkout/:id): create it, show it, pay it with a test
 * card.
 */
export function localCheckoutCalls(
  ctx: LocalBillingContext,
): Pick<LocalBillingProvider, 'createCheckoutSession' | 'findCheckoutSession' | 'completeCheckout'> {
  const { db, clock, publicUrl } = ctx;
  return {
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

    async findCheckoutSession(id) {
      const session = await findSession(db, id, 'checkout');
      if (!session?.plan || !session.billingPeriod) return undefined;
      const customer = await findCustomer(db, session.customerId);
      return {
        id: session.id,
        status:
          session.status === 'complete' ? 'complete' : sessionExpired(ctx, session) ? 'expired' : 'open',
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
        if (sessionExpired(ctx, session))
          throw new PaymentError(billingMessages.invalidSessionId, 'not_found');
        await lockCustomer(tx, session.customerId);
        const paymentMethod = await storeCard(ctx, tx, session.customerId, card);
        await setDefault(tx, session.customerId, paymentMethod.id);
        const result = await changePlanIn(
          ctx,
          tx,
          session.customerId,
          { plan: session.plan, billingPeriod: session.billingPeriod },
          `checkout:${session.id}`,
        );
        await markCheckoutComplete(tx, session.id, result.subscription.id);
        return { customerId: session.customerId, subscription: result.subscription, redirectUrl };
      });
    },
  };
}
