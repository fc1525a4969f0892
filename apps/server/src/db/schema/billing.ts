import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Billing records kept whatever the provider: Stripe webhook events already applied. */

/**
 * Stripe webhook events already applied (issue 4): the event id is the primary key, so an event Stripe
 * delivers twice is applied once.
 */
export const webhookEvents = pgTable('webhook_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});
