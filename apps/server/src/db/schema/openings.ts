import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, ownerId } from './columns.ts';
import { customers } from './waitlist.ts';

/** Cancellation alerts: an opening and the offers texted for it (issue 5, DESIGN.md §5). */

export const openings = pgTable(
  'openings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    durationMinutes: integer('duration_minutes').notNull(),
    service: text('service').notNull(),
    priceCents: integer('price_cents'),
    status: text('status', { enum: ['open', 'filled', 'expired', 'closed'] })
      .notNull()
      .default('open'),
    mode: text('mode', { enum: ['all', 'waves'] }).notNull(),
    waveSize: integer('wave_size'),
    claimWindowMinutes: integer('claim_window_minutes'),
    nextWaveAt: timestamp('next_wave_at', { withTimezone: true }),
    /** When the owner's phone hears "Nobody has claimed your slot yet" if still open (issue 14); null once sent. */
    unclaimedNoticeAt: timestamp('unclaimed_notice_at', { withTimezone: true }),
    winnerCustomerId: uuid('winner_customer_id').references(() => customers.id, { onDelete: 'set null' }),
    filledAt: timestamp('filled_at', { withTimezone: true }),
    createdAt: createdAt(),
    /** YYYY-MM-DD in the business's time zone when the alert went out: alerts per day are counted on it. */
    localDate: text('local_date').notNull(),
  },
  (table) => [
    index('openings_user_local_date_idx').on(table.userId, table.localDate),
    index('openings_open_idx').on(table.startsAt).where(sql`${table.status} = 'open'`),
    /** The earnings dashboard: a business's openings by when their alert went out. */
    index('openings_user_created_at_idx').on(table.userId, table.createdAt),
  ],
);

export const offers = pgTable(
  'offers',
  {
    openingId: uuid('opening_id')
      .notNull()
      .references(() => openings.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    wave: integer('wave').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    status: text('status', { enum: ['pending', 'sent', 'won', 'lost', 'skipped'] })
      .notNull()
      .default('pending'),
    /** When this customer, texted and not the winner, was told the slot is taken (issue 15); once. */
    toldAt: timestamp('told_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.openingId, table.customerId] }),
    index('offers_customer_idx').on(table.customerId),
  ],
);
