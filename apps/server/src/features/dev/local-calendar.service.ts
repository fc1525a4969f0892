import { createHash } from 'node:crypto';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import {
  editEvent,
  isCalendarObject,
  type LocalEventEdit,
  type LocalEventSummary,
  type NewLocalEvent,
  newEvent,
  summarize,
} from './local-calendar.ics.ts';
import * as repo from './local-calendar.repo.ts';

/** A business as the local calendar sees it (features/auth's repo owns `users`; wired in routes.ts). */
export interface LocalCalendarBusiness {
  id: string;
  businessName: string;
  timeZone: string;
  email: string;
}

export interface LocalCalendarBusinesses {
  findById(id: string): Promise<LocalCalendarBusiness | undefined>;
  findByEmail(email: string): Promise<LocalCalendarBusiness | undefined>;
}

export interface LocalCalendarDeps {
  db: Database;
  clock: Clock;
  businesses: LocalCalendarBusinesses;
}

/** The HTTP preconditions of a write (RFC 7232): If-Match an ETag, If-None-Match: * (only if new). */
export interface WritePreconditions {
  ifMatch?: string | undefined;
  ifNoneMatch?: string | undefined;
}

export type PutOutcome =
  | { outcome: 'created' | 'updated'; etag: string }
  | { outcome: 'precondition-failed' }
  | { outcome: 'not-an-event' };
export type DeleteOutcome = 'deleted' | 'not-found' | 'precondition-failed';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The ETag of a stored text: a hash of it, so an unchanged re-PUT keeps its ETag. */
export const etagOf = (ics: string) => `"${createHash('sha256').update(ics).digest('hex').slice(0, 32)}"`;

/** Whether a live row satisfies the preconditions (a missing or deleted one counts as absent). */
function preconditionsHold(row: repo.LocalCalendarRow | undefined, conditions: WritePreconditions) {
  const live = row && !row.deleted ? row : undefined;
  const ifNoneMatch = conditions.ifNoneMatch?.trim();
  if (ifNoneMatch === '*' && live) return false;
  const ifMatch = conditions.ifMatch?.trim();
  if (ifMatch === undefined || ifMatch === '') return true;
  if (!live) return false;
  if (ifMatch === '*') return true;
  const wanted = ifMatch.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  return wanted.includes(live.etag);
}

export type LocalCalendarService = ReturnType<typeof createLocalCalendarService>;

/**
 * The local calendar (issue 29's embedded default): each business's events on this machine, written by the
 * /dev/calendar page, its JSON twin and CalDAV clients (the app's own sync among them), numbered by `seq`.
 */
export function createLocalCalendarService({ db, clock, businesses }: LocalCalendarDeps) {
  async function put(
    userId: string,
    uid: string,
    ics: string,
    conditions: WritePreconditions = {},
  ): Promise<PutOutcome> {
    if (!isCalendarObject(ics)) return { outcome: 'not-an-event' };
    return repo.withCalendarLock(db, userId, async (tx) => {
      const existing = await repo.findEvent(tx, userId, uid);
      if (!preconditionsHold(existing, conditions)) return { outcome: 'precondition-failed' as const };
      const etag = etagOf(ics);
      await repo.upsertEvent(tx, { userId, uid, ics, etag, now: clock.now() });
      return { outcome: existing && !existing.deleted ? ('updated' as const) : ('created' as const), etag };
    });
  }

  async function remove(userId: string, uid: string, conditions: WritePreconditions = {}) {
    return repo.withCalendarLock(db, userId, async (tx): Promise<DeleteOutcome> => {
      const existing = await repo.findEvent(tx, userId, uid);
      if (!existing || existing.deleted) return 'not-found';
      if (!preconditionsHold(existing, { ifMatch: conditions.ifMatch })) return 'precondition-failed';
      await repo.tombstoneEvent(tx, userId, uid, clock.now());
      return 'deleted';
    });
  }

  async function live(userId: string, uid: string) {
    const row = await repo.findEvent(db, userId, uid);
    return row && !row.deleted ? row : undefined;
  }

  return {
    put,
    remove,
    live,

    /** The business of a CalDAV path or a form: undefined for an unknown id (or one that is no UUID). */
    async business(userId: string): Promise<LocalCalendarBusiness | undefined> {
      return UUID.test(userId) ? businesses.findById(userId.toLowerCase()) : undefined;
    },

    businessByEmail: (email: string) => businesses.findByEmail(email.trim().toLowerCase()),

    /** The businesses that have a local calendar, for the page's list. */
    async businessesWithCalendars(): Promise<LocalCalendarBusiness[]> {
      const ids = await repo.businessesWithEvents(db);
      const found = await Promise.all(ids.map((id) => businesses.findById(id)));
      return found.filter((business): business is LocalCalendarBusiness => business !== undefined);
    },

    /** The live events, as stored. */
    objects: (userId: string) => repo.listLiveEvents(db, userId),

    /** The current change number: sync token and CTag. */
    latestSeq: (userId: string) => repo.latestSeq(db, userId),

    /** Changes after `seq` (tombstones included); null when `seq` is one this calendar never gave. */
    async changesSince(userId: string, seq: number) {
      const latest = await repo.latestSeq(db, userId);
      if (seq > latest) return null;
      return { latest, rows: await repo.changesSince(db, userId, seq) };
    },

    /** The live events as the page and the JSON twin show them, by start. */
    async summaries(business: LocalCalendarBusiness): Promise<(LocalEventSummary & { etag: string })[]> {
      const rows = await repo.listLiveEvents(db, business.id);
      return rows
        .map((row) => {
          const summary = summarize(row.uid, row.ics, business.timeZone);
          return summary && { ...summary, etag: row.etag };
        })
        .filter((summary): summary is LocalEventSummary & { etag: string } => summary !== null)
        .sort((a, b) => a.start.getTime() - b.start.getTime());
    },

    /** Adds an event as the owner would in a calendar app; returns its resource name. */
    async add(userId: string, event: Omit<NewLocalEvent, 'now'>): Promise<string> {
      const created = newEvent({ ...event, now: clock.now() });
      await put(userId, created.uid, created.ics, { ifNoneMatch: '*' });
      return created.uid;
    },

    /** Moves, cancels or strips attendees from an event; false when there is no such live event. */
    async edit(userId: string, uid: string, edit: LocalEventEdit): Promise<boolean> {
      const row = await live(userId, uid);
      if (!row) return false;
      const ics = editEvent(row.ics, edit, clock.now());
      if (!ics) return false;
      const written = await put(userId, uid, ics, { ifMatch: row.etag });
      // Changed by someone else between the read and the write: try once more on the new text.
      if (written.outcome === 'precondition-failed') {
        const again = await live(userId, uid);
        const retried = again && editEvent(again.ics, edit, clock.now());
        if (!again || !retried) return false;
        return (await put(userId, uid, retried, { ifMatch: again.etag })).outcome !== 'precondition-failed';
      }
      return true;
    },
  };
}
