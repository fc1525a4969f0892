import { billingMessages } from '@waitlist/contract';
import type { UserRow } from '../../db/rows.ts';
import { NotFound } from '../../lib/errors.ts';
import type { TestCardInput } from '../../providers/billing/local-cards.ts';
import { type BillingContext, providerCall } from './billing-context.ts';

/**
 * The owner's cards: setup intents (and the local provider's confirmation), the list, add, remove, default.
 */
export function billingPaymentMethodCalls(ctx: BillingContext) {
  const { provider } = ctx;
  return {
    async createSetupIntent(user: UserRow) {
      ctx.requireConfigured();
      const customerId = await ctx.customerOf(user);
      return providerCall(() => provider.createSetupIntent(customerId));
    },

    async confirmLocalSetupIntent(user: UserRow, clientSecret: string, card: TestCardInput) {
      const localProvider = ctx.requireLocal();
      const customerId = await ctx.customerOf(user);
      const result = await providerCall(() =>
        localProvider.confirmSetupIntent(customerId, clientSecret, card),
      );
      await ctx.refresh(customerId);
      return result;
    },

    async listPaymentMethods(user: UserRow) {
      ctx.requireConfigured();
      const customerId = await ctx.existingCustomer(user);
      return customerId ? providerCall(() => provider.listPaymentMethods(customerId)) : [];
    },

    async attachPaymentMethod(user: UserRow, paymentMethodId: string) {
      ctx.requireConfigured();
      const customerId = await ctx.customerOf(user);
      await providerCall(() => provider.attachPaymentMethod(customerId, paymentMethodId));
      await ctx.refresh(customerId);
      return providerCall(() => provider.listPaymentMethods(customerId));
    },

    async detachPaymentMethod(user: UserRow, paymentMethodId: string) {
      ctx.requireConfigured();
      const customerId = await ctx.existingCustomer(user);
      if (!customerId) throw new NotFound(billingMessages.paymentMethodNotFound);
      await providerCall(() => provider.detachPaymentMethod(customerId, paymentMethodId));
      return providerCall(() => provider.listPaymentMethods(customerId));
    },

    async setDefaultPaymentMethod(user: UserRow, paymentMethodId: string) {
      ctx.requireConfigured();
      const customerId = await ctx.existingCustomer(user);
      if (!customerId) throw new NotFound(billingMessages.paymentMethodNotFound);
      await providerCall(() => provider.setDefaultPaymentMethod(customerId, paymentMethodId));
      await ctx.refresh(customerId);
      return providerCall(() => provider.listPaymentMethods(customerId));
    },
  };
}
