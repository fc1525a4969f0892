import { billingMessages, type PaymentMethod } from '@waitlist/contract';
import type Stripe from 'stripe';
import type { BillingProvider } from './index.ts';
import { PaymentError } from './payment-error.ts';
import { call, isMissingResource, type StripeContext } from './stripe-client.ts';
import { idOf, toPaymentMethod } from './stripe-mapping.ts';
import { currentSubscription } from './stripe-subscriptions.ts';

export async function defaultPaymentMethodOf(
  { stripe }: StripeContext,
  customerId: string,
): Promise<string | null> {
  const customer = await call(() => stripe.customers.retrieve(customerId));
  if ('deleted' in customer && customer.deleted)
    throw new PaymentError(billingMessages.noSubscription, 'not_found');
  return idOf((customer as Stripe.Customer).invoice_settings?.default_payment_method ?? null);
}

export async function requireDefaultCard(ctx: StripeContext, customerId: string): Promise<string> {
  const paymentMethod = await defaultPaymentMethodOf(ctx, customerId);
  if (!paymentMethod) throw new PaymentError(billingMessages.noPaymentMethod, 'no_payment_method');
  return paymentMethod;
}

async function listCards({ stripe }: StripeContext, customerId: string): Promise<Stripe.PaymentMethod[]> {
  const list = await call(() =>
    stripe.paymentMethods.list({ customer: customerId, type: 'card', limit: 100 }),
  );
  return [...list.data].sort((a, b) => b.created - a.created);
}

/** The card, when it belongs to this customer; otherwise the contract's "not found". */
async function ownedCard(
  { stripe }: StripeContext,
  customerId: string,
  paymentMethodId: string,
): Promise<Stripe.PaymentMethod> {
  const card = await call(() => stripe.paymentMethods.retrieve(paymentMethodId)).catch((error: unknown) => {
    if (error instanceof PaymentError) throw error;
    if (isMissingResource(error)) throw new PaymentError(billingMessages.paymentMethodNotFound, 'not_found');
    throw error;
  });
  if (idOf(card.customer) !== customerId)
    throw new PaymentError(billingMessages.paymentMethodNotFound, 'not_found');
  return card;
}

/** Makes a card the customer's default, and the live subscription's too so renewals charge it. */
async function applyDefault(ctx: StripeContext, customerId: string, paymentMethodId: string | null) {
  const { stripe } = ctx;
  await call(() =>
    stripe.customers.update(customerId, {
      invoice_settings: { default_payment_method: paymentMethodId ?? '' },
    }),
  );
  if (!paymentMethodId) return;
  const subscription = await currentSubscription(ctx, customerId);
  const subscriptionCard = idOf(subscription?.default_payment_method ?? null);
  if (subscription && subscriptionCard && subscriptionCard !== paymentMethodId) {
    await call(() =>
      stripe.subscriptions.update(subscription.id, { default_payment_method: paymentMethodId }),
    );
  }
}

/** The owner's cards: the SetupIntent for Stripe Elements, the list, attach, detach and the default. */
export function stripeCardCalls(
  ctx: StripeContext,
): Pick<
  BillingProvider,
  | 'createSetupIntent'
  | 'listPaymentMethods'
  | 'attachPaymentMethod'
  | 'detachPaymentMethod'
  | 'setDefaultPaymentMethod'
> {
  const { stripe } = ctx;
  return {
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
        listCards(ctx, customerId),
        defaultPaymentMethodOf(ctx, customerId),
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
      if (!(await defaultPaymentMethodOf(ctx, customerId)))
        await applyDefault(ctx, customerId, paymentMethodId);
    },

    async detachPaymentMethod(customerId, paymentMethodId) {
      await ownedCard(ctx, customerId, paymentMethodId);
      const defaultId = await defaultPaymentMethodOf(ctx, customerId);
      await call(() => stripe.paymentMethods.detach(paymentMethodId));
      if (defaultId === paymentMethodId) {
        const [newest] = await listCards(ctx, customerId);
        await applyDefault(ctx, customerId, newest?.id ?? null);
      }
    },

    async setDefaultPaymentMethod(customerId, paymentMethodId) {
      await ownedCard(ctx, customerId, paymentMethodId);
      await applyDefault(ctx, customerId, paymentMethodId);
    },
  };
}
