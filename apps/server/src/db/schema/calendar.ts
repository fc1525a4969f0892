import type { CalendarSkipReason } from '@waitlist/contract';
import { sql } from 'drizzle-orm';
import {
  bigint,
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
import { openings } from './openings.ts';

/**
 * Connected calendars (issue 29). A connection is read on a schedule (and at once on a push from Google or
 * Microsoft); what it held last time is `calendar_events`, so a sync compares before and after and a
 * cancellation becomes a `calendar_proposals` row, once. A claimed slot is written back as a
 * `calendar_bookings` row, retried until the calendar has it.
 */
export const calendarConnections = pgTable(
  'calendar_connections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    /** google, microsoft, caldav, ics or local. */
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    /** The CalDAV server or ICS feed address (never with credentials in it); null for Google and Microsoft. */
    url: text('url'),
    /** The calendar collection read and written (CalDAV href, Google calendar id, Microsoft calendar id). */
    calendarRef: text('calendar_ref'),
    /** The account signed in as (CalDAV username, Google or Microsoft email). */
    account: text('account'),
    /** The password or OAuth tokens, sealed with CALENDAR_ENCRYPTION_KEY (lib/secret-box): never stored plain. */
    secret: text('secret'),
    mode: text('mode').notNull().default('ask'),
    horizonDays: integer('horizon_days').notNull().default(7),
    graceMinutes: integer('grace_minutes').notNull().default(5),
    exclude: jsonb('exclude').$type<string[]>().notNull().default(['Lunch', 'Blocked', 'Break', 'Busy']),
    rules: jsonb('rules')
      .$type<
        { contains: string; serviceId?: string | null; staffId?: string | null; priceCents?: number | null }[]
      >()
      .notNull()
      .default([]),
    /** Incremental sync state: a sync token (CalDAV sync-collection, Google, Graph delta link) and a CTag. */
    syncToken: text('sync_token'),
    ctag: text('ctag'),
    /** A push channel (Google events.watch, Graph subscription): its id, secret token and end. */
    channelId: text('channel_id'),
    channelToken: text('channel_token'),
    channelResourceId: text('channel_resource_id'),
    channelExpiresAt: timestamp('channel_expires_at', { withTimezone: true }),
    status: text('status').notNull().default('ok'),
    lastError: text('last_error'),
    /** Failed reads in a row: each doubles the wait before the next read, up to an hour (issue 38). */
    failures: integer('failures').notNull().default(0),
    /** Events the last read left out (a rule that repeats every second, past a bound) and why (issue 38). */
    skipped: jsonb('skipped')
      .$type<{ uid: string; title: string; reason: CalendarSkipReason }[]>()
      .notNull()
      .default([]),
    lastSyncedAt: timestamp('last_synced_at', { withTimezone: true }),
    /** When the next sync is due; a push sets it to now. */
    nextSyncAt: timestamp('next_sync_at', { withTimezone: true }).notNull().defaultNow(),
    /** One instance syncs a connection at a time: it takes the lease until this time. */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('calendar_connections_user_idx').on(table.userId),
    index('calendar_connections_due_idx').on(table.nextSyncAt),
    uniqueIndex('calendar_connections_channel_key').on(table.channelId),
    // The channel renewal's pass (leaseChannelsDue): the pushing kinds' channels by end, missing ones first.
    index('calendar_connections_channel_due_idx')
      .on(table.channelExpiresAt)
      .where(sql`kind in ('google', 'microsoft')`),
  ],
);

/** What a connection held at its last sync: one row per event instance (uid + recurrence id). */
export const calendarEvents = pgTable(
  'calendar_events',
  {
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => calendarConnections.id, { onDelete: 'cascade' }),
    /** uid, or uid|recurrence id for one occurrence of a recurring event. */
    instanceKey: text('instance_key').notNull(),
    uid: text('uid').notNull(),
    recurrenceId: text('recurrence_id'),
    /** Where the event lives in the calendar (CalDAV href, provider id) and its version. */
    href: text('href'),
    etag: text('etag'),
    title: text('title').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    status: text('status').notNull(),
    attendees: integer('attendees').notNull().default(0),
    /** Written by this app (a booked claim): never read back as a cancellation. */
    ours: boolean('ours').notNull().default(false),
  },
  (table) => [
    primaryKey({ columns: [table.connectionId, table.instanceKey] }),
    index('calendar_events_time_idx').on(table.connectionId, table.startsAt),
  ],
);

/** A cancellation found in a calendar: proposed to the owner, scheduled to open, opened, or dismissed. */
export const calendarProposals = pgTable(
  'calendar_proposals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => calendarConnections.id, { onDelete: 'cascade' }),
    instanceKey: text('instance_key').notNull(),
    title: text('title').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    durationMinutes: integer('duration_minutes').notNull(),
    serviceId: uuid('service_id'),
    staffId: uuid('staff_id'),
    priceCents: integer('price_cents'),
    reason: text('reason').notNull(),
    /** proposed, scheduled (automatic: opens at opens_at), opened, dismissed, expired. */
    status: text('status').notNull(),
    opensAt: timestamp('opens_at', { withTimezone: true }),
    openingId: uuid('opening_id').references(() => openings.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // A re-sync never proposes (or opens) the same slot twice.
    uniqueIndex('calendar_proposals_slot_key').on(table.connectionId, table.instanceKey, table.startsAt),
    index('calendar_proposals_user_idx').on(table.userId, table.status),
    index('calendar_proposals_due_idx').on(table.opensAt).where(sql`status = 'scheduled'`),
  ],
);

/** A claimed slot booked back into a calendar (or removed again), retried until the calendar has it. */
export const calendarBookings = pgTable(
  'calendar_bookings',
  {
    openingId: uuid('opening_id')
      .notNull()
      .references(() => openings.id, { onDelete: 'cascade' }),
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => calendarConnections.id, { onDelete: 'cascade' }),
    uid: text('uid').notNull(),
    href: text('href'),
    etag: text('etag'),
    /** What the calendar should hold: 'booked' (write it) or 'removed' (delete it). */
    wanted: text('wanted').notNull(),
    /** Whether the calendar holds what is wanted. */
    done: boolean('done').notNull().default(false),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.openingId, table.connectionId] }),
    index('calendar_bookings_due_idx').on(table.nextAttemptAt).where(sql`done = false`),
  ],
);

/**
 * The local calendar (issue 29, the embedded default): each business's calendar on this machine, edited at
 * /dev/calendar and served as CalDAV at /dev/calendar/dav/, so the whole flow works offline. A deleted event
 * stays as a tombstone so sync-collection can report it; `seq` orders every change (the sync token).
 */
export const localCalendarEvents = pgTable(
  'local_calendar_events',
  {
    userId: ownerId(),
    uid: text('uid').notNull(),
    /** The whole VCALENDAR as last PUT. */
    ics: text('ics').notNull(),
    etag: text('etag').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    deleted: boolean('deleted').notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.uid] }),
    index('local_calendar_events_seq_idx').on(table.userId, table.seq),
  ],
);
