import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, ownerId } from './columns.ts';
import { openings } from './openings.ts';
import { customers } from './waitlist.ts';

/** Texts: the conversation, Plivo webhooks already applied, and the numbers that said STOP. */

/** Every text in or out, with its delivery status: the customer's conversation. */
export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    openingId: uuid('opening_id').references(() => openings.id, { onDelete: 'set null' }),
    direction: text('direction', { enum: ['out', 'in'] }).notNull(),
    fromNumber: text('from_number').notNull(),
    toNumber: text('to_number').notNull(),
    body: text('body').notNull(),
    segments: integer('segments').notNull(),
    encoding: text('encoding').notNull(),
    providerMessageId: text('provider_message_id'),
    status: text('status', {
      enum: ['queued', 'sent', 'delivered', 'failed', 'received', 'undelivered'],
    }).notNull(),
    error: text('error'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    /**
     * Set (committed) just before the provider is called and left while the outcome is unknown: a retry that
     * finds it set asks the provider whether the text already went out before sending it again (issue 17).
     */
    sendStartedAt: timestamp('send_started_at', { withTimezone: true }),
    /** When the owner read this reply in the inbox (issue 15); null while unread. Inbound texts only. */
    readAt: timestamp('read_at', { withTimezone: true }),
    /** Insertion order: a conversation reads right even for texts stored within the same millisecond. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  },
  (table) => [
    uniqueIndex('messages_provider_message_id_key')
      .on(table.providerMessageId)
      .where(sql`${table.providerMessageId} is not null`),
    index('messages_customer_idx').on(table.customerId, table.createdAt),
    index('messages_opening_idx').on(table.openingId),
    index('messages_user_idx').on(table.userId, table.createdAt),
    /** The inbox badge and each conversation's unread count: a business's unread replies. */
    index('messages_unread_idx')
      .on(table.userId, table.customerId)
      .where(sql`${table.direction} = 'in' and ${table.readAt} is null`),
  ],
);

/** Plivo webhooks already applied (message id or status event key): a replayed webhook is applied once. */
export const inboundEvents = pgTable('inbound_events', {
  id: text('id').primaryKey(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Numbers that asked a business to stop texting them (issue 24): one row per business and phone, written on
 * STOP from any path (a customer, a join request, a stranger) and removed only by the phone's own START. Every
 * text to a phone is checked against it, whatever queued it, so an opt-out outlives the customer row (a
 * customer removed and added again, a number submitted again on the join page).
 */
export const smsOptOuts = pgTable(
  'sms_opt_outs',
  {
    userId: ownerId(),
    /** E.164. */
    phone: text('phone').notNull(),
    optedOutAt: timestamp('opted_out_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.phone] })],
);
