import { randomBytes } from 'node:crypto';
import { billingMessages } from '@waitlist/contract';
import { and, asc, desc, eq, isNotNull, isNull, lte, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  localBillingClock,
  localBillingCustomers,
  localBillingInvoices,
  localBillingPaymentMethods,
  localBillingSessions,
  localBillingSetupIntents,
  localBillingSubscriptions,
} from '../../db/schema.ts';
import { chargeRefusal } from './local-cards.ts';
import { PaymentError } from './payment-error.ts';

/**
 * The local billing provider's tables (local_billing_*): every query on them, and charging an invoice. The
 * provider (local.ts, local-subscriptions.ts) holds the rules of subscriptions, plan changes, period ends and
 * sessions on top of these, and decides where transactions begin.
 */
export type CustomerRow = typeof localBillingCustomers.$inferSelect;
export type SubscriptionRow = typeof localBillingSubscriptions.$inferSelect;
export type InvoiceRow = typeof localBillingInvoices.$inferSelect;
export type PaymentMethodRow = typeof localBillingPaymentMethods.$inferSelect;
export type SessionRow = typeof localBillingSessions.$inferSelect;

export const randomId = (prefix: string, bytes = 12) =>
  `${prefix}_${randomBytes(bytes).toString('base64url')}`;

// ---- the billing clock ----
/** How far the billing clock runs ahead of the real one (advanced by the local billing test tools). */
export async function offsetMs(executor: Executor): Promise<number> {
  const [row] = await executor
    .select({ offsetMs: localBillingClock.offsetMs })
    .from(localBillingClock)
    .where(eq(localBillingClock.id, 1));
  return row?.offsetMs ?? 0;
}
export async function addToClockOffset(executor: Executor, ms: number) {
  await executor
    .insert(localBillingClock)
    .values({ id: 1, offsetMs: ms })
    .onConflictDoUpdate({
      target: localBillingClock.id,
      set: { offsetMs: sql`${localBillingClock.offsetMs} + ${ms}` },
    });
}
export async function clearClockOffset(executor: Executor) {
  await executor.delete(localBillingClock);
}

// ---- customers ----
export async function insertCustomer(
  executor: Executor,
  customer: typeof localBillingCustomers.$inferInsert,
) {
  await executor.insert(localBillingCustomers).values(customer);
}
export async function updateCustomerDetails(
  executor: Executor,
  customerId: string,
  changes: Partial<Pick<CustomerRow, 'name' | 'email' | 'address'>>,
) {
  await executor.update(localBillingCustomers).set(changes).where(eq(localBillingCustomers.id, customerId));
}
/** Reads and locks the customer row: one customer's changes and charges run one at a time. */
export async function lockCustomer(tx: Executor, customerId: string): Promise<CustomerRow> {
  const [row] = await tx
    .select()
    .from(localBillingCustomers)
    .where(eq(localBillingCustomers.id, customerId))
    .for('update');
  if (!row) throw new PaymentError(billingMessages.noSubscription, 'not_found');
  return row;
}
export async function findCustomer(executor: Executor, customerId: string) {
  const [row] = await executor
    .select()
    .from(localBillingCustomers)
    .where(eq(localBillingCustomers.id, customerId));
  return row;
}
export function setDefault(tx: Executor, customerId: string, paymentMethodId: string | null) {
  return tx
    .update(localBillingCustomers)
    .set({ defaultPaymentMethodId: paymentMethodId })
    .where(eq(localBillingCustomers.id, customerId));
}

// ---- cards (payment methods) and setup intents ----
export async function insertCard(tx: Executor, card: typeof localBillingPaymentMethods.$inferInsert) {
  const [row] = await tx.insert(localBillingPaymentMethods).values(card).returning();
  return row!;
}
export async function attachedCards(executor: Executor, customerId: string) {
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
export async function ownedCard(executor: Executor, customerId: string, paymentMethodId: string) {
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
/** Any card by id, detached ones too (the card an old invoice was paid with). */
export async function findCard(executor: Executor, paymentMethodId: string) {
  const [row] = await executor
    .select()
    .from(localBillingPaymentMethods)
    .where(eq(localBillingPaymentMethods.id, paymentMethodId));
  return row;
}
export async function markCardAttached(tx: Executor, paymentMethodId: string, at: Date) {
  await tx
    .update(localBillingPaymentMethods)
    .set({ attachedAt: at })
    .where(eq(localBillingPaymentMethods.id, paymentMethodId));
}
export async function markCardDetached(tx: Executor, paymentMethodId: string, at: Date) {
  await tx
    .update(localBillingPaymentMethods)
    .set({ detachedAt: at })
    .where(eq(localBillingPaymentMethods.id, paymentMethodId));
}
export async function detachAllCards(tx: Executor, customerId: string, at: Date) {
  await tx
    .update(localBillingPaymentMethods)
    .set({ detachedAt: at })
    .where(
      and(
        eq(localBillingPaymentMethods.customerId, customerId),
        isNull(localBillingPaymentMethods.detachedAt),
      ),
    );
}
export async function insertSetupIntent(
  executor: Executor,
  intent: typeof localBillingSetupIntents.$inferInsert,
) {
  await executor.insert(localBillingSetupIntents).values(intent);
}
/** Reads and locks a setup intent by its client secret: it is confirmed once. */
export async function lockSetupIntent(tx: Executor, clientSecret: string) {
  const [row] = await tx
    .select()
    .from(localBillingSetupIntents)
    .where(eq(localBillingSetupIntents.clientSecret, clientSecret))
    .for('update');
  return row;
}
export async function markSetupIntentSucceeded(tx: Executor, intentId: string, paymentMethodId: string) {
  await tx
    .update(localBillingSetupIntents)
    .set({ status: 'succeeded', paymentMethodId })
    .where(eq(localBillingSetupIntents.id, intentId));
}

// ---- checkout and portal sessions ----
export async function insertSession(executor: Executor, session: typeof localBillingSessions.$inferInsert) {
  await executor.insert(localBillingSessions).values(session);
}
function sessionOfKind(executor: Executor, id: string, kind: SessionRow['kind']) {
  return executor
    .select()
    .from(localBillingSessions)
    .where(and(eq(localBillingSessions.id, id), eq(localBillingSessions.kind, kind)));
}
export async function findSession(executor: Executor, id: string, kind: SessionRow['kind']) {
  const [row] = await sessionOfKind(executor, id, kind);
  return row;
}
/** Reads and locks a session: a checkout is paid once. */
export async function lockSession(tx: Executor, id: string, kind: SessionRow['kind']) {
  const [row] = await sessionOfKind(tx, id, kind).for('update');
  return row;
}
export async function markCheckoutComplete(tx: Executor, sessionId: string, subscriptionId: string) {
  await tx
    .update(localBillingSessions)
    .set({ status: 'complete', subscriptionId })
    .where(eq(localBillingSessions.id, sessionId));
}

// ---- subscriptions ----
/** The customer's subscription that has not ended (at most one). */
export async function liveSubscription(executor: Executor, customerId: string) {
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
export async function insertSubscription(
  tx: Executor,
  subscription: typeof localBillingSubscriptions.$inferInsert,
) {
  const [row] = await tx.insert(localBillingSubscriptions).values(subscription).returning();
  return row!;
}
/** Changes one subscription and returns it as it is now. */
export async function updateSubscription(
  tx: Executor,
  subscriptionId: string,
  changes: Partial<typeof localBillingSubscriptions.$inferInsert>,
) {
  const [row] = await tx
    .update(localBillingSubscriptions)
    .set(changes)
    .where(eq(localBillingSubscriptions.id, subscriptionId))
    .returning();
  return row!;
}
/** Ends the customer's live subscriptions at `endedAt`, with nothing scheduled after them. */
export async function endLiveSubscriptions(tx: Executor, customerId: string, endedAt: Date) {
  await tx
    .update(localBillingSubscriptions)
    .set({
      status: 'canceled',
      endedAt,
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
}
/** Customers with a live subscription whose period ended by `now`, the longest due first. */
export async function customersWithDuePeriodEnds(executor: Executor, now: Date, limit: number) {
  return executor
    .select({ customerId: localBillingSubscriptions.customerId })
    .from(localBillingSubscriptions)
    .where(
      and(
        ne(localBillingSubscriptions.status, 'canceled'),
        lte(localBillingSubscriptions.currentPeriodEnd, now),
      ),
    )
    .orderBy(asc(localBillingSubscriptions.currentPeriodEnd))
    .limit(limit);
}

// ---- invoices ----
export async function listInvoiceRows(executor: Executor, customerId: string) {
  return executor
    .select()
    .from(localBillingInvoices)
    .where(eq(localBillingInvoices.customerId, customerId))
    .orderBy(desc(localBillingInvoices.createdAt), desc(localBillingInvoices.number));
}
export async function findInvoice(executor: Executor, invoiceId: string) {
  const [row] = await executor
    .select()
    .from(localBillingInvoices)
    .where(eq(localBillingInvoices.id, invoiceId));
  return row;
}
/** The invoice a request with this idempotency key created, if it ran before. */
export async function findInvoiceByIdempotencyKey(executor: Executor, idempotencyKey: string) {
  const [row] = await executor
    .select()
    .from(localBillingInvoices)
    .where(eq(localBillingInvoices.idempotencyKey, idempotencyKey));
  return row;
}
export async function openInvoiceCount(tx: Executor, customerId: string) {
  const [row] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(localBillingInvoices)
    .where(and(eq(localBillingInvoices.customerId, customerId), eq(localBillingInvoices.status, 'open')));
  return row?.count ?? 0;
}
/** The customer's open invoices will never be paid (the subscription or the customer ended). */
export async function voidOpenInvoices(tx: Executor, customerId: string) {
  await tx
    .update(localBillingInvoices)
    .set({ status: 'void' })
    .where(and(eq(localBillingInvoices.customerId, customerId), eq(localBillingInvoices.status, 'open')));
}

// ---- charging ----
/**
 * Creates the invoice for `amount` under `idempotencyKey` and pays it with the default card. The same key
 * returns the invoice it created the first time and charges nothing more. A refused card throws (a plan
 * change is then not applied), unless `leaveOpen`: renewals keep an open invoice and go past_due.
 */
export async function charge(
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
  const existing = await findInvoiceByIdempotencyKey(tx, line.idempotencyKey);
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
export async function settleOpenInvoices(
  tx: Executor,
  customerId: string,
  billingNow: (executor: Executor) => Promise<Date>,
) {
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
