import type { Database, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Logger } from '../../lib/logger.ts';
import { type BookingRow, leaseDueBookings, settleBooking } from './bookings.repo.ts';
import { CalDavError, connectCalDav } from './caldav-client.ts';
import type { ConnectionRow } from './calendar.repo.ts';
import * as repo from './calendar.repo.ts';
import type { CalendarSource } from './calendar-reader.ts';
import { deleteGoogleBooking, type GoogleApp, writeGoogleBooking } from './google-calendar.ts';
import { toIcs } from './ics.ts';
import type { MicrosoftApp } from './microsoft-auth.ts';
import { deleteMicrosoftBooking, writeMicrosoftBooking } from './microsoft-calendar.ts';
import { openTokens, sealTokens } from './oauth-apps.ts';
import { openSecret } from './secret-box.ts';

/** A claimed opening as its booking reads (features/openings). */
export interface OpeningBooking {
  startsAt: Date;
  durationMinutes: number;
  service: string;
  /** The stylist the slot is with, when it names one. */
  staffName: string | null;
  customerName: string | null;
  customerPhone: string | null;
}

export interface BookingDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  sourceOf(row: ConnectionRow): Promise<CalendarSource>;
  /** Google's app and the sealing key, for Google calendars (their tokens are sealed in the row). */
  google?: GoogleApp;
  microsoft?: MicrosoftApp;
  sealKey: () => Promise<Uint8Array>;
  bookingOf(executor: Executor, openingId: string): Promise<OpeningBooking | undefined>;
}

const LEASE_MS = 2 * 60_000;
/** 1, 2, 4… minutes between tries, at most 6 hours: a calendar that is down for a day still gets the booking. */
const retryAfterMs = (attempts: number) => Math.min(6 * 3_600_000, 60_000 * 2 ** Math.max(0, attempts - 1));
/** The name of the event we write for an opening: the same opening always writes the same object. */
const fileOf = (openingId: string) => `waitlist-opening-${openingId}.ics`;

/**
 * Claimed slots booked back into the business's calendars (issue 29): a claim wants the booking, a released
 * claim wants it removed (features/openings records the wish in its own transaction); this worker makes each
 * calendar match, retrying until it does. The event carries the customer's name and phone and our marker,
 * so the next read never takes it for a cancellation. ICS feeds are read-only and get no booking.
 */
export function createBookings(deps: BookingDeps) {
  const { db, clock, logger } = deps;

  /** What a claimed opening books: its time and the customer; null once nobody holds it (nothing to write). */
  async function bookingDetails(booking: BookingRow) {
    const opening = await deps.bookingOf(db, booking.openingId);
    if (!opening?.customerName || !opening.customerPhone) return null;
    return {
      openingId: booking.openingId,
      start: opening.startsAt,
      end: new Date(opening.startsAt.getTime() + opening.durationMinutes * 60_000),
      customerName: opening.customerName,
      customerPhone: opening.customerPhone,
      // "Cut with Jess": the stylist's own calendar shows whose chair the customer sits in (issue 39).
      serviceName: opening.staffName ? `${opening.service} with ${opening.staffName}` : opening.service,
    };
  }

  /** A booking in a Google or Microsoft calendar: inserted (the provider names it) or deleted by that name. */
  async function writeOAuth(booking: BookingRow, connection: ConnectionRow) {
    const google = connection.kind === 'google' ? deps.google : undefined;
    const microsoft = connection.kind === 'microsoft' ? deps.microsoft : undefined;
    const calendarId = connection.calendarRef;
    if ((!google && !microsoft) || !connection.secret || !calendarId)
      throw new Error(`${connection.kind} calendars are not set up here`);
    const key = await deps.sealKey();
    const tokens = openTokens(openSecret(connection.secret, key));
    const keep = async (fresh: { accessToken: string } | null) => {
      if (fresh)
        await repo.updateConnection(db, connection.id, { secret: sealTokens(fresh as typeof tokens, key) });
    };
    if (booking.wanted === 'removed') {
      if (booking.href) {
        const { tokens: fresh } = google
          ? await deleteGoogleBooking(google, tokens, calendarId, booking.href)
          : await deleteMicrosoftBooking(microsoft!, tokens, booking.href);
        await keep(fresh);
      }
      return { done: true, href: null, etag: null };
    }
    const details = await bookingDetails(booking);
    if (!details) return { done: true, href: null, etag: null };
    const written = google
      ? await writeGoogleBooking(google, tokens, calendarId, details)
      : await writeMicrosoftBooking(microsoft!, tokens, calendarId, details);
    await keep(written.tokens);
    return { done: true, href: written.eventId, etag: written.etag };
  }

  async function write(booking: BookingRow, connection: ConnectionRow, now: Date) {
    if (connection.kind === 'google' || connection.kind === 'microsoft')
      return writeOAuth(booking, connection);
    const source = await deps.sourceOf(connection);
    const client = await connectCalDav({
      serverUrl: source.url,
      username: source.username ?? '',
      password: source.password ?? '',
      fetch: source.fetch,
    });
    const calendar = connection.calendarRef ?? source.url;
    const href = booking.href ?? new URL(fileOf(booking.openingId), calendar).href;
    if (booking.wanted === 'removed') {
      await client.deleteEvent({ href });
      return { done: true, href: null, etag: null };
    }
    const details = await bookingDetails(booking);
    if (!details) return { done: true, href: null, etag: null };
    const ics = toIcs({ ...details, now });
    try {
      const written = await client.createEvent(calendar, { filename: fileOf(booking.openingId), ics });
      return { done: true, href: written.href, etag: written.etag };
    } catch (error) {
      // Written by an earlier try whose answer was lost: it is there already.
      if (error instanceof CalDavError && error.status === 412) return { done: true, href, etag: null };
      throw error;
    }
  }

  return {
    /** The worker's pass: every due booking tried by one instance; returns how many were done. */
    async runDue(limit = 20) {
      const now = clock.now();
      const due = await leaseDueBookings(db, now, new Date(now.getTime() + LEASE_MS), limit);
      let done = 0;
      for (const booking of due) {
        const connection = await repo.connectionById(db, booking.connectionId);
        if (!connection) continue;
        try {
          const result = await write(booking, connection, now);
          await settleBooking(db, booking, { ...result, lastError: null });
          done += 1;
        } catch (error) {
          logger.warn({ openingId: booking.openingId, err: error }, 'calendar booking not written yet');
          await settleBooking(db, booking, {
            lastError: (error as Error).message.slice(0, 500),
            nextAttemptAt: new Date(now.getTime() + retryAfterMs(booking.attempts)),
          });
        }
      }
      return done;
    },
  };
}
