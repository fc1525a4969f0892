import type { Invoice } from '@waitlist/contract';
import Stripe from 'stripe';
import type { BillingDetails, BillingProvider, CheckoutRequest } from './index.ts';
import { call, hash, idempotencyKeyOf, isMissingResource, type StripeContext } from './stripe-client.ts';
import { toInvoice } from './stripe-mapping.ts';

/** The Stripe customer (create, details, delete), its invoices, and the hosted Checkout and portal pages. */
export function stripeCustomerCalls(
  ctx: StripeContext,
): Pick<
  BillingProvider,
  | 'createCustomer'
  | 'updateCustomer'
  | 'listInvoices'
  | 'createCheckoutSession'
  | 'createPortalSession'
  | 'deleteCustomer'
> {
  const { stripe, clock, publicUrl } = ctx;
  return {
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

    async listInvoices(customerId): Promise<Invoice[]> {
      const list = await call(() => stripe.invoices.list({ customer: customerId, limit: 100 }));
      return list.data.filter((invoice) => invoice.status !== 'draft').map(toInvoice);
    },

    async createCheckoutSession(customerId, request: CheckoutRequest) {
      const price = ctx.prices.priceIdFor(request.plan, request.billingPeriod);
      const successUrl =
        request.successUrl || `${publicUrl}/subscription/success?session_id={CHECKOUT_SESSION_ID}`;
      const cancelUrl = request.cancelUrl || `${publicUrl}/subscription/cancel`;
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
          return_url: returnUrl || `${publicUrl}/account?tab=billing`,
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
