import type { Invoice, PaymentMethod, Subscription } from '@waitlist/contract';
import type { BillingDetails } from './index.ts';
import type { LocalBillingProvider } from './local.ts';
import {
  attachedCards,
  findCard,
  findCustomer,
  findInvoice,
  findSession,
  insertSession,
  listInvoiceRows,
  liveSubscription,
  randomId,
} from './local-billing.repo.ts';
import type { LocalBillingContext } from './local-billing-clock.ts';
import { toInvoice, toPaymentMethod, toSubscription } from './local-billing-dto.ts';
import { sessionExpired } from './local-checkout.ts';

const PORTAL_TTL_MS = 60 * 60 * 1000;

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

/** The local "hosted" billing portal (/billing/local/portal/:id) and the public invoice page and PDF. */
export function localPortalCalls(
  ctx: LocalBillingContext,
): Pick<LocalBillingProvider, 'createPortalSession' | 'findPortal' | 'findInvoiceDocument'> {
  const { db, clock, publicUrl } = ctx;
  return {
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

    async findPortal(id) {
      const session = await findSession(db, id, 'portal');
      if (!session || sessionExpired(ctx, session)) return undefined;
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
