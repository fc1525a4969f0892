import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, ownerId } from './columns.ts';
import { serviceRef, staffRef } from './services.ts';

/** The waitlist (issue 5, DESIGN.md §5): customers, each owner's text templates, and join requests (issue 15). */

/** One day-of-week set and time window a customer can come: days 0 = Sunday … 6, times 'HH:MM'. */
export type TimePreference = { days: number[]; from: string; to: string };

export const customers = pgTable(
  'customers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    name: text('name').notNull(),
    /** E.164. */
    phone: text('phone').notNull(),
    notes: text('notes').notNull().default(''),
    status: text('status', { enum: ['waiting', 'offered', 'booked', 'removed'] })
      .notNull()
      .default('waiting'),
    position: integer('position').notNull(),
    consentMethod: text('consent_method', {
      enum: ['verbal', 'written', 'web_form', 'text_keyword', 'imported'],
    }).notNull(),
    consentedAt: timestamp('consented_at', { withTimezone: true }).notNull().defaultNow(),
    optedOut: boolean('opted_out').notNull().default(false),
    optedOutAt: timestamp('opted_out_at', { withTimezone: true }),
    preferences: jsonb('preferences').$type<TimePreference[]>().notNull().default([]),
    firstTextSent: boolean('first_text_sent').notNull().default(false),
    /** The service the customer waits for (issue 26); null: any. */
    serviceId: serviceRef(),
    /** The staff member they want; null: no preference. */
    staffId: staffRef(),
    /** The customer's own IANA time zone for quiet hours, when the owner set one; null: the business's. */
    timeZone: text('time_zone'),
    /** The language the customer reads their texts in (issue 28): 'en' English, 'es' Spanish. */
    language: text('language', { enum: ['en', 'es'] })
      .notNull()
      .default('en'),
    /** The owner's favourite: moves up the automatic order. */
    vip: boolean('vip').notNull().default(false),
    /** Offered first, before anyone the policy ranks. */
    pinned: boolean('pinned').notNull().default(false),
    /** The last automatic "the owner will reply" answer to a free-text reply (issue 15): one per 24 hours. */
    autoAnsweredAt: timestamp('auto_answered_at', { withTimezone: true }),
    /**
     * What a reply from this customer does now, as the reply policy last wrote it (features/conversation/
     * reply-policy.ts, decision 0013): the one-statement way reads it instead of deciding again. Null: not
     * known, the reply takes the transaction's way, which writes it. It is written only while the row still
     * holds the status, opt-out and automatic-answer time it was decided from, and a trigger forgets it
     * whenever the status or the opt-out changes (migration 0014).
     */
    replyOnClaim: text('reply_on_claim', { enum: ['quiet', 'act'] }),
    replyOnText: text('reply_on_text', { enum: ['quiet', 'answer', 'act'] }),
    /** The free-text verdict holds until then (null: no end); after it, the reply takes the transaction. */
    replyTextUntil: timestamp('reply_text_until', { withTimezone: true }),
    /** The owner's push setting the verdict was decided with (push on: free text reaches the owner's phone). */
    replyPush: boolean('reply_push'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('customers_user_phone_key')
      .on(table.userId, table.phone)
      .where(sql`${table.status} <> 'removed'`),
    index('customers_user_position_idx').on(table.userId, table.position),
    /** Opt-outs per range on the earnings dashboard. */
    index('customers_user_opted_out_at_idx').on(table.userId, table.optedOutAt).where(sql`${table.optedOut}`),
  ],
);

/**
 * Per-user editable text templates (keys: confirmation, reminder, cancellation_alert, claimed, already_filled),
 * one version per language (issue 28).
 */
export const messageTemplates = pgTable(
  'message_templates',
  {
    userId: ownerId(),
    key: text('key').notNull(),
    language: text('language', { enum: ['en', 'es'] })
      .notNull()
      .default('en'),
    body: text('body').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.key, table.language] })],
);

/**
 * A customer asking to join a waitlist (issue 15): from the public page or by texting JOIN. Pending until
 * they reply YES to the confirmation text (double opt-in); the consent wording, time, address and the YES
 * are kept as the proof a carrier campaign asks for.
 */
export const joinRequests = pgTable(
  'join_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    name: text('name').notNull(),
    /** E.164. */
    phone: text('phone').notNull(),
    method: text('method', { enum: ['web_form', 'text_keyword'] }).notNull(),
    /** The consent wording the customer saw (the page) or sent (the text), in `language`. */
    consentText: text('consent_text').notNull(),
    /** The language the customer chose on the join page (issue 28), given to the customer on their YES. */
    language: text('language', { enum: ['en', 'es'] })
      .notNull()
      .default('en'),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    status: text('status', { enum: ['pending', 'confirmed', 'cancelled', 'full'] })
      .notNull()
      .default('pending'),
    createdAt: createdAt(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    /** The customer's YES (messages.id). */
    confirmationMessageId: uuid('confirmation_message_id'),
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    /** The service and staff member chosen on the join page (issue 26), given to the customer on their YES. */
    serviceId: serviceRef(),
    staffId: staffRef(),
  },
  (table) => [
    index('join_requests_pending_idx').on(table.userId, table.phone).where(sql`${table.status} = 'pending'`),
  ],
);
