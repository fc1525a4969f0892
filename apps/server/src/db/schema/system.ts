import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** Cross-cutting bookkeeping: scheduled runs done, single-use nonces, rate-limit counters. */

/**
 * Scheduled work done, one row per job and due item (issue 17): the row is written in the same transaction
 * as the work, so with any number of instances each due item runs once, and a rolled-back run frees it.
 * Carries the weekly email (job 'weekly-email', due key '<userId>:<the summarised week's Monday>'), and the
 * weekly email's leases of owner id ranges (job 'weekly-email:lease', at most 64 rows: `ran_at` is when the
 * lease ends).
 */
export const scheduledRuns = pgTable(
  'scheduled_runs',
  {
    job: text('job').notNull(),
    dueKey: text('due_key').notNull(),
    ranAt: timestamp('ran_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.job, table.dueKey] })],
);

/**
 * Single-use values seen within their validity window (issue 24): a webhook signature's nonce, a solved
 * proof-of-work challenge. The key refuses a second use; rows are swept once expired.
 */
export const usedNonces = pgTable(
  'used_nonces',
  {
    scope: text('scope').notNull(),
    nonce: text('nonce').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.scope, table.nonce] }),
    index('used_nonces_expires_at_idx').on(table.expiresAt),
  ],
);

/** Counters for rate-limiter-flexible's Drizzle store (used when REDIS_URL is unset). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull().default(0),
  expire: timestamp('expire', { withTimezone: true }),
});
