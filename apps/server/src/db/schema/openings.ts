import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, ownerId } from './columns.ts';
import { serviceRef, staffRef } from './services.ts';
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
    /** The service and staff member of the slot (issue 26); null: a free slot of its length, anyone. */
    serviceId: serviceRef(),
    staffId: staffRef(),
    status: text('status', { enum: ['open', 'filled', 'expired', 'closed'] })
      .notNull()
      .default('open'),
    /** 'auto': the offer policy chose the waves and claim window from the lead time (issue 26). */
    mode: text('mode', { enum: ['auto', 'all', 'waves'] }).notNull(),
    waveSize: integer('wave_size'),
    claimWindowMinutes: integer('claim_window_minutes'),
    nextWaveAt: timestamp('next_wave_at', { withTimezone: true }),
    /** When the owner's phone hears "Nobody has claimed your slot yet" if still open (issue 14); null once sent. */
    unclaimedNoticeAt: timestamp('unclaimed_notice_at', { withTimezone: true }),
    winnerCustomerId: uuid('winner_customer_id').references(() => customers.id, { onDelete: 'set null' }),
    /**
     * What the winner books, in cents, fixed when she claims (issue 39): her own service's price when she waits
     * for another service than the slot's, else the slot's. A later price change leaves past earnings alone;
     * null while nobody holds the slot.
     */
    bookedPriceCents: integer('booked_price_cents'),
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
    // The day view (issue 29): a business's openings in a span of time.
    index('openings_user_starts_at_idx').on(table.userId, table.startsAt),
    // The openings worker's passes every 15 s (issue 30): the next waves and the owner's "nobody has claimed"
    // notices due, without reading every open opening of every business.
    index('openings_next_wave_idx')
      .on(table.nextWaveAt)
      .where(sql`${table.status} = 'open' and ${table.nextWaveAt} is not null`),
    index('openings_unclaimed_notice_idx')
      .on(table.unclaimedNoticeAt)
      .where(sql`${table.status} = 'open' and ${table.unclaimedNoticeAt} is not null`),
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
    /**
     * pending: a later wave; held: waits for quiet hours to end (sendAt); sent; won; lost; skipped: never
     * texted (skipReason says why when it is the policy's rule); declined: the winner backed out by text
     * (issue 26); released: the owner released the winner (issue 39). A plain text column: no migration.
     */
    status: text('status', {
      enum: ['pending', 'held', 'sent', 'won', 'lost', 'skipped', 'declined', 'released'],
    })
      .notNull()
      .default('pending'),
    /** The place the offer policy gave this customer (1 = first). */
    rank: integer('rank').notNull().default(0),
    /** Why they were asked when they were, in the owner's words ("claimed 3 of 4 offers, replies in ~4 min"). */
    reason: text('reason').notNull().default(''),
    /** A held offer goes out then (quiet hours end in the customer's time zone). */
    sendAt: timestamp('send_at', { withTimezone: true }),
    skipReason: text('skip_reason', { enum: ['quiet_hours', 'daily_cap'] }),
    /** When the customer answered YES (won or too late): the offer policy learns claims and reply times from it. */
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    /** When this customer, texted and not the winner, was told the slot is taken (issue 15); once. */
    toldAt: timestamp('told_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.openingId, table.customerId] }),
    index('offers_customer_idx').on(table.customerId),
    /** Held offers whose quiet hours end: the worker sends them. */
    index('offers_held_idx').on(table.sendAt).where(sql`${table.status} = 'held'`),
  ],
);
