import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * The local billing provider's own records (the default when no Stripe key is set). Times are the billing
 * clock's (the injected clock plus `local_billing_clock.offset_ms`).
 */

/** The local provider's customers; the row is also the lock that serialises one customer's charges. */
export const localBillingCustomers = pgTable('local_billing_customers', {
  id: text('id').primaryKey(),
  email: text('email').notNull(),
  name: text('name').notNull(),
  address: jsonb('address'),
  defaultPaymentMethodId: text('default_payment_method_id'),
  /** Invoice numbers are per customer: `${invoicePrefix}-0001`, `-0002`, … */
  invoicePrefix: text('invoice_prefix').notNull(),
  nextInvoiceNumber: integer('next_invoice_number').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/** Test cards confirmed through a setup intent. Only brand, last four digits and expiry are kept. */
export const localBillingPaymentMethods = pgTable(
  'local_billing_payment_methods',
  {
    id: text('id').primaryKey(),
    customerId: text('customer_id')
      .notNull()
      .references(() => localBillingCustomers.id, { onDelete: 'cascade' }),
    brand: text('brand').notNull(),
    last4: text('last4').notNull(),
    expMonth: integer('exp_month').notNull(),
    expYear: integer('exp_year').notNull(),
    /** Set by attach; a detached card keeps its row (invoices may name it) but is no longer listed. */
    attachedAt: timestamp('attached_at', { withTimezone: true }),
    detachedAt: timestamp('detached_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** Insertion order: "newest card first" even for cards added within the same millisecond. */
    position: integer('position').generatedAlwaysAsIdentity(),
  },
  (table) => [index('local_billing_payment_methods_customer_idx').on(table.customerId)],
);

export const localBillingSetupIntents = pgTable(
  'local_billing_setup_intents',
  {
    id: text('id').primaryKey(),
    customerId: text('customer_id')
      .notNull()
      .references(() => localBillingCustomers.id, { onDelete: 'cascade' }),
    clientSecret: text('client_secret').notNull(),
    status: text('status', { enum: ['requires_payment_method', 'succeeded'] }).notNull(),
    paymentMethodId: text('payment_method_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [uniqueIndex('local_billing_setup_intents_secret_key').on(table.clientSecret)],
);

export const localBillingSubscriptions = pgTable(
  'local_billing_subscriptions',
  {
    id: text('id').primaryKey(),
    customerId: text('customer_id')
      .notNull()
      .references(() => localBillingCustomers.id, { onDelete: 'cascade' }),
    plan: text('plan', { enum: ['starter', 'growth'] }).notNull(),
    billingPeriod: text('billing_period', { enum: ['monthly', 'yearly'] }).notNull(),
    status: text('status', { enum: ['active', 'past_due', 'canceled'] }).notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }).notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
    /** Periods are counted from here in calendar months or years (Jan 31 → Feb 28 → Mar 31, as Stripe does). */
    billingCycleAnchor: timestamp('billing_cycle_anchor', { withTimezone: true }).notNull(),
    /** A change to a cheaper price, applied at the end of the current period. */
    pendingPlan: text('pending_plan', { enum: ['starter', 'growth'] }),
    pendingBillingPeriod: text('pending_billing_period', { enum: ['monthly', 'yearly'] }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (table) => [
    // At most one live subscription per customer, whatever races.
    uniqueIndex('local_billing_subscriptions_live_key')
      .on(table.customerId)
      .where(sql`${table.status} <> 'canceled'`),
    index('local_billing_subscriptions_due_idx')
      .on(table.currentPeriodEnd)
      .where(sql`${table.status} <> 'canceled'`),
  ],
);

export const localBillingInvoices = pgTable(
  'local_billing_invoices',
  {
    /** Long and random: it is also the key of the public hosted-invoice and PDF links. */
    id: text('id').primaryKey(),
    customerId: text('customer_id')
      .notNull()
      .references(() => localBillingCustomers.id, { onDelete: 'cascade' }),
    subscriptionId: text('subscription_id'),
    number: text('number').notNull(),
    status: text('status', { enum: ['paid', 'open', 'void'] }).notNull(),
    amountDue: integer('amount_due').notNull(),
    amountPaid: integer('amount_paid').notNull(),
    currency: text('currency').notNull(),
    description: text('description').notNull(),
    paymentMethodId: text('payment_method_id'),
    periodStart: timestamp('period_start', { withTimezone: true }),
    periodEnd: timestamp('period_end', { withTimezone: true }),
    /** The same key never creates a second invoice (or charge): double submits, worker retries. */
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('local_billing_invoices_idempotency_key').on(table.idempotencyKey),
    uniqueIndex('local_billing_invoices_number_key').on(table.customerId, table.number),
    index('local_billing_invoices_customer_idx').on(table.customerId, table.createdAt),
  ],
);

/** The local "hosted" checkout and billing-portal pages; ids are long random strings, like Stripe's. */
export const localBillingSessions = pgTable('local_billing_sessions', {
  id: text('id').primaryKey(),
  kind: text('kind', { enum: ['checkout', 'portal'] }).notNull(),
  customerId: text('customer_id')
    .notNull()
    .references(() => localBillingCustomers.id, { onDelete: 'cascade' }),
  plan: text('plan', { enum: ['starter', 'growth'] }),
  billingPeriod: text('billing_period', { enum: ['monthly', 'yearly'] }),
  successUrl: text('success_url'),
  cancelUrl: text('cancel_url'),
  returnUrl: text('return_url'),
  status: text('status', { enum: ['open', 'complete'] })
    .notNull()
    .default('open'),
  subscriptionId: text('subscription_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** One row (id 1): how far the local billing clock runs ahead of the real one (POST /dev/billing/advance). */
export const localBillingClock = pgTable('local_billing_clock', {
  id: integer('id').primaryKey(),
  offsetMs: bigint('offset_ms', { mode: 'number' }).notNull().default(0),
});
