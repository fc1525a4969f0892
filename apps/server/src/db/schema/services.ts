import { sql } from 'drizzle-orm';
import { integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, ownerId } from './columns.ts';

/**
 * What a business sells and who does it (issue 26): services (name, length, price) and, optionally, staff.
 * A waitlist entry names the service it wants and, if the customer cares, with whom; an opening names its
 * service and staff member, and only entries that fit are offered. The owner's offer rules (quiet hours, the
 * daily cap) are here too: one row per business, absent until the owner changes a default.
 */

export const services = pgTable(
  'services',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    name: text('name').notNull(),
    durationMinutes: integer('duration_minutes').notNull(),
    priceCents: integer('price_cents'),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('services_user_name_key').on(table.userId, sql`lower(${table.name})`)],
);

export const staffMembers = pgTable(
  'staff_members',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('staff_members_user_name_key').on(table.userId, sql`lower(${table.name})`)],
);

/** The owner's offer rules; a business without a row has the defaults (8:00–20:00, 3 offers a day). */
export const offerSettings = pgTable(
  'offer_settings',
  {
    userId: ownerId(),
    /** Texts the customer did not just ask for go out from this time ('HH:MM', their time zone); never before 08:00. */
    sendFrom: text('send_from').notNull().default('08:00'),
    /** … until this time; never after 21:00. */
    sendUntil: text('send_until').notNull().default('20:00'),
    /** Offers a customer may receive in one day (their own), "it's been filled" texts included. */
    dailyOfferCap: integer('daily_offer_cap').notNull().default(3),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId] })],
);

export const serviceRef = () => uuid('service_id').references(() => services.id, { onDelete: 'set null' });
export const staffRef = () => uuid('staff_id').references(() => staffMembers.id, { onDelete: 'set null' });
