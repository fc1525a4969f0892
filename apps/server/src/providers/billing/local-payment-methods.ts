import { randomBytes } from 'node:crypto';
import { billingMessages } from '@waitlist/contract';
import type { Executor } from '../../db/client.ts';
import type { LocalBillingProvider } from './local.ts';
import {
  attachedCards,
  findCustomer,
  insertCard,
  insertSetupIntent,
  lockCustomer,
  lockSetupIntent,
  markCardAttached,
  markCardDetached,
  markSetupIntentSucceeded,
  ownedCard,
  randomId,
  setDefault,
  settleOpenInvoices,
} from './local-billing.repo.ts';
import type { LocalBillingContext } from './local-billing-clock.ts';
import { toPaymentMethod } from './local-billing-dto.ts';
import { type TestCardInput, validateTestCard } from './local-cards.ts';
import { PaymentError } from './payment-error.ts';

/** Checks a test card and stores it, attached to the customer, at the billing clock's now. */
export async function storeCard(
  { billingNow }: LocalBillingContext,
  tx: Executor,
  customerId: string,
  card: TestCardInput,
) {
  const now = await billingNow(tx);
  const stored = validateTestCard(card, now);
  return insertCard(tx, { id: randomId('pm'), customerId, ...stored, attachedAt: now, createdAt: now });
}

/**
 * The owner's test cards: setup intents (and their confirmation, the part Stripe.js plays), the list, attach,
 * detach and the default. A customer's first card, or a new default, pays the invoices left open.
 */
export function localPaymentMethodCalls(
  ctx: LocalBillingContext,
): Pick<
  LocalBillingProvider,
  | 'createSetupIntent'
  | 'confirmSetupIntent'
  | 'listPaymentMethods'
  | 'attachPaymentMethod'
  | 'detachPaymentMethod'
  | 'setDefaultPaymentMethod'
> {
  const { db, clock, billingNow } = ctx;
  return {
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
        const paymentMethod = await storeCard(ctx, tx, customerId, card);
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
  };
}
