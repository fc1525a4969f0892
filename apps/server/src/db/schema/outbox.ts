import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';

/** Outgoing email, texts and pushes: the transactional outbox and the local mailbox. */

/**
 * Transactional outbox (DESIGN.md §2): every email or text is written here in the same transaction as
 * the change that caused it, and the worker delivers it with retries.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: ['email', 'sms', 'push'] }).notNull(),
    payload: jsonb('payload').notNull(),
    status: text('status', { enum: ['pending', 'sent', 'dead'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** Queue order: rows due at the same instant leave in the order they were queued (FIFO). */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  },
  (table) => [
    // The claim's whole order (due time, then FIFO), so a claim reads its batch and stops: with the time
    // alone, rows queued in one pass (a Monday's summaries share their `now`) were all read and sorted by
    // seq on every claim, 92 ms a claim with 76,000 pending (issue 30, bench:weekly).
    index('outbox_due_idx').on(table.nextAttemptAt, table.seq).where(sql`${table.status} = 'pending'`),
  ],
);

/** The local email provider's mailbox (shown at /dev/mailbox); the embedded default, not a test double. */
export const localEmails = pgTable('local_emails', {
  id: uuid('id').primaryKey().defaultRandom(),
  outboxId: uuid('outbox_id'),
  to: text('to').notNull(),
  from: text('from').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html').notNull(),
  createdAt: createdAt(),
  /** Delivery order: the newest email is the highest, even for two stored within one clock tick. */
  seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
});
