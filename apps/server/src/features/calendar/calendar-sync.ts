import {
  CALENDAR_READ_LIMITS,
  type CalendarKind,
  type calendarConnectBody,
  calendarMessages as m,
} from '@waitlist/contract';
import type { z } from 'zod';
import { BadRequest } from '../../lib/errors.ts';
import { pushTime } from '../../lib/time-zone.ts';
import type { ConnectionRow, StoredEvent } from './calendar.repo.ts';
import * as repo from './calendar.repo.ts';
import type { CalendarDeps } from './calendar.service.ts';
import { instanceKey } from './calendar-event.ts';
import { CalendarAddressRefused, CalendarAnswerTooLarge, CalendarRedirectRefused } from './calendar-fetch.ts';
import { CalendarReadError, type CalendarSource, type ReadResult, readCalendar } from './calendar-reader.ts';
import { detectChanges } from './changes.ts';
import { readGoogle } from './google-calendar.ts';
import type { SkippedEvent } from './ics.ts';
import { readMicrosoft } from './microsoft-calendar.ts';
import { googleAppOf, microsoftAppOf, openTokens, sealTokens } from './oauth-apps.ts';
import { openSecret } from './secret-box.ts';
import { matchTitle } from './title-rules.ts';

const DAY_MS = 86_400_000;
/** A slot is 5 minutes to 24 hours, as any opening. */
const durationOf = (event: StoredEvent) =>
  Math.min(24 * 60, Math.max(5, Math.round((event.end.getTime() - event.start.getTime()) / 60_000)));

/** The calendar was read, but what it said could not be stored (a rule naming a vanished service, the database). */
class SaveFailed extends Error {
  override name = 'SaveFailed';
}

/** What the owner reads when a calendar cannot be reached or read, and on which field. */
export function refusalOf(error: unknown): { message: string; field?: string } {
  if (error instanceof SaveFailed) return { message: m.syncFailed };
  if (error instanceof CalendarAnswerTooLarge) return { message: m.answerTooLarge, field: 'url' };
  if (error instanceof CalendarRedirectRefused)
    return { message: error.reason === 'insecure' ? m.insecureRedirect : m.redirectRefused, field: 'url' };
  if (error instanceof CalendarAddressRefused) return { message: m.urlNotAllowed, field: 'url' };
  if (error instanceof CalendarReadError) {
    if (error.reason === 'sign-in') return { message: m.signInFailed, field: 'password' };
    if (error.reason === 'no-calendar') return { message: m.noCalendars, field: 'url' };
    if (error.reason === 'unreadable') return { message: m.feedUnreadable, field: 'url' };
    if (error.reason === 'too-slow') return { message: m.readTooSlow, field: 'url' };
  }
  return { message: m.unreachable, field: 'url' };
}

/** The span a read covers: from a day back to the horizon and two months past it (a moved event stays seen). */
export const windowOf = (now: Date, horizonDays: number, timeZone: string) => ({
  from: new Date(now.getTime() - DAY_MS),
  to: new Date(now.getTime() + (horizonDays + 60) * DAY_MS),
  defaultTimeZone: timeZone,
});

/** The proposal a cancelled event becomes, with what the owner's rules make of its title. */
export function proposalOf(row: ConnectionRow, was: StoredEvent, after: ReadResult['events'], now: Date) {
  const current = after.find((event) => instanceKey(event) === instanceKey(was));
  const match = matchTitle(was.title, row.rules);
  const automatic = row.mode === 'auto';
  return {
    userId: row.userId,
    connectionId: row.id,
    instanceKey: instanceKey(was),
    title: was.title.slice(0, 200) || 'Appointment',
    startsAt: was.start,
    durationMinutes: durationOf(was),
    serviceId: match?.serviceId ?? null,
    staffId: match?.staffId ?? null,
    priceCents: match?.priceCents ?? null,
    reason: !current ? 'deleted' : current.status === 'cancelled' ? 'cancelled' : 'attendee_left',
    status: automatic ? 'scheduled' : 'proposed',
    opensAt: automatic ? new Date(now.getTime() + row.graceMinutes * 60_000) : null,
    createdAt: now,
    updatedAt: now,
  };
}

/** How to read a connection: its address and credentials, opened from the sealed secret. */
export async function sourceOf(deps: CalendarDeps, row: ConnectionRow): Promise<CalendarSource> {
  const secret = row.secret ? openSecret(row.secret, await deps.sealKey()) : null;
  if (row.kind === 'local') {
    if (!deps.local) throw new CalendarReadError('The local calendar is not on', 'unreachable');
    return { ...base(deps, row), url: deps.local.url(row.userId), fetch: deps.local.fetch };
  }
  // An ICS feed's whole address is its secret (a private link); CalDAV's is the app password.
  if (row.kind === 'ics') return { ...base(deps, row), url: secret ?? row.url ?? '' };
  return { ...base(deps, row), url: row.url ?? '', password: secret };
}
const base = (deps: CalendarDeps, row: ConnectionRow) => ({
  kind: row.kind as CalendarKind,
  calendarRef: row.calendarRef,
  username: row.account,
  password: null,
  fetch: deps.fetch,
  parser: deps.parser,
  // An event that ran out of time at an earlier read is not tried again (it would cost the limit each read).
  skipUids: row.skipped.filter((event) => event.reason === 'too-slow').map((event) => event.uid),
});

/** A failing calendar is read less often: 45 s, then twice as long after each failure in a row, up to an hour. */
export const BACKOFF_CAP_MS = 60 * 60_000;
export const retryDelayMs = (syncEveryMs: number, failures: number) =>
  Math.min(BACKOFF_CAP_MS, syncEveryMs * 2 ** Math.max(0, failures - 1));

/** At most this many skipped events are kept to show the owner. */
const MAX_SKIPPED_SHOWN = 20;

/**
 * The instances a connection keeps (issue 38): at most CALENDAR_READ_LIMITS.rowsPerConnection, the soonest
 * first, and what was left out for the owner, joined with what an incremental read did not look at again.
 */
export function boundedRead(
  read: Pick<ReadResult, 'events' | 'skipped' | 'partial'>,
  before: readonly SkippedEvent[],
) {
  const limit = CALENDAR_READ_LIMITS.rowsPerConnection;
  const sorted =
    read.events.length <= limit
      ? read.events
      : [...read.events].sort((a, b) => a.start.getTime() - b.start.getTime());
  const events = sorted.slice(0, limit);
  const skipped: SkippedEvent[] = [...(read.skipped ?? [])];
  const over = sorted[limit];
  if (over) skipped.push({ uid: over.uid, title: over.title.slice(0, 80), reason: 'too-many-rows' });
  // A read of only what changed (CalDAV's incremental sync) says nothing of the rest: what was skipped
  // before stands, unless that event was read again.
  const reread = new Set([...events.map((event) => event.uid), ...skipped.map((event) => event.uid)]);
  const carried = read.partial
    ? before.filter((event) => !reread.has(event.uid) && event.reason !== 'too-many-rows')
    : [];
  return { events, skipped: [...skipped, ...carried].slice(0, MAX_SKIPPED_SHOWN) };
}

/**
 * A connection read as it is now. Google's refreshed tokens are sealed again at once (a refresh token is
 * not given twice).
 */
async function readConnection(
  deps: CalendarDeps,
  row: ConnectionRow,
  before: StoredEvent[],
  window: ReturnType<typeof windowOf>,
) {
  if (row.kind !== 'google' && row.kind !== 'microsoft')
    return readCalendar(await sourceOf(deps, row), before, row, window);
  const google = row.kind === 'google' ? googleAppOf(deps) : undefined;
  const microsoft = row.kind === 'microsoft' ? microsoftAppOf(deps) : undefined;
  if ((!google && !microsoft) || !row.secret)
    throw new CalendarReadError(`${row.kind} calendars are not set up here`, 'unreachable');
  const key = await deps.sealKey();
  const tokens = openTokens(openSecret(row.secret, key));
  const read = google
    ? await readGoogle(google, tokens, row.calendarRef, row, window, before)
    : await readMicrosoft(microsoft!, tokens, row.calendarRef, row, window, before);
  if (read.tokens) await repo.updateConnection(deps.db, row.id, { secret: sealTokens(read.tokens, key) });
  return read;
}

/**
 * What a read found, kept: 1. the cancellations become proposals (each instance and start once: a read repeated
 * after a crash proposes nothing twice) and the owner is pushed, in one transaction; 2. the new picture, what
 * changed only, in short transactions (replaceEvents: one calendar never holds the database long); 3. then
 * the read's sync state, so a crash before it reads the same changes again.
 */
async function saveRead(
  deps: CalendarDeps,
  {
    row,
    owner,
    before,
    read,
    events,
    skipped,
    now,
  }: {
    row: ConnectionRow;
    owner: { timeZone: string };
    before: StoredEvent[];
    read: ReadResult;
    events: StoredEvent[];
    skipped: SkippedEvent[];
    now: Date;
  },
  syncEveryMs: number,
) {
  const { db } = deps;
  const inserted = await db.transaction(async (tx) => {
    const locked = await repo.lockConnection(tx, row.id);
    if (!locked) return [];
    const { cancellations } = detectChanges(before, events, {
      now,
      horizonDays: locked.horizonDays,
      exclude: locked.exclude,
    });
    const proposals = await repo.insertProposals(
      tx,
      cancellations.map((was) => proposalOf(locked, was as StoredEvent, events, now)),
    );
    for (const proposal of proposals.filter((p) => p.status === 'proposed'))
      await deps.notifyOwner?.(
        tx,
        row.userId,
        {
          title: m.proposalTitle(pushTime(proposal.startsAt, owner.timeZone), proposal.title),
          body: 'Tap to text your waitlist, or dismiss it.',
          url: '/inbox',
        },
        now,
      );
    return proposals;
  });
  await repo.replaceEvents(db, row.id, events, before);
  await db.transaction(async (tx) => {
    const locked = await repo.lockConnection(tx, row.id);
    if (!locked) return;
    // A push that came while this read was under way made the calendar due again: it stays due, so what
    // changed after the read is read at the next pass, not 45 s later.
    const pushedMeanwhile = locked.nextSyncAt.getTime() !== row.nextSyncAt.getTime();
    await repo.updateConnection(tx, row.id, {
      syncToken: read.state.syncToken,
      ctag: read.state.ctag,
      status: 'ok',
      lastError: null,
      failures: 0,
      skipped,
      lastSyncedAt: now,
      nextSyncAt: pushedMeanwhile ? locked.nextSyncAt : new Date(now.getTime() + syncEveryMs),
      leaseUntil: null,
      updatedAt: now,
    });
  });
  return inserted;
}

/**
 * Reading connected calendars (issue 29): a connection's first read at connect, and each later read, which
 * turns what changed into proposals.
 */
export function createCalendarSync(deps: CalendarDeps) {
  const { db, clock, logger } = deps;
  // Read every 45 s and passed over every 15 s: a change is seen within a minute (issue 29).
  const syncEveryMs = deps.syncEveryMs ?? 45_000;

  /**
   * One read of one leased connection: what changed since the last read becomes proposals (each slot once),
   * the new picture is kept, and the owner is pushed for each slot that waits for them. A calendar that
   * cannot be read keeps its last picture and says why.
   */
  async function sync(row: ConnectionRow): Promise<number> {
    const now = clock.now();
    try {
      return await readAndPropose(row, now);
    } catch (error) {
      // Whatever failed (the read, a rule naming a service since deleted, the database), the connection says
      // so and is read again later, less often after each failure in a row (issue 38), never every 45 s.
      logger.warn({ connectionId: row.id, err: error }, 'calendar sync failed');
      const failures = row.failures + 1;
      // Events found to spin before the read gave up are kept, so the next read skips them and gets further.
      const slow = error instanceof CalendarReadError ? error.slow : [];
      const known = new Set(row.skipped.map((event) => event.uid));
      await repo.updateConnection(db, row.id, {
        status: 'error',
        lastError: refusalOf(error).message,
        failures,
        ...(slow.length
          ? {
              skipped: [
                ...slow
                  .filter((event) => !known.has(event.uid))
                  .map((event) => ({ ...event, reason: 'too-slow' as const })),
                ...row.skipped,
              ].slice(0, MAX_SKIPPED_SHOWN),
            }
          : {}),
        leaseUntil: null,
        nextSyncAt: new Date(now.getTime() + retryDelayMs(syncEveryMs, failures)),
        updatedAt: now,
      });
      return 0;
    }
  }

  /**
   * One read of one leased connection: what changed since the last read becomes proposals (each slot once),
   * the new picture is kept (bounded: boundedRead), and the owner is pushed for each slot that waits for them.
   */
  async function readAndPropose(row: ConnectionRow, now: Date): Promise<number> {
    const owner = await deps.users.findUserById(db, row.userId);
    if (!owner) return 0;
    const before = await repo.eventsOf(db, row.id);
    const read = await readConnection(deps, row, before, windowOf(now, row.horizonDays, owner.timeZone));
    const { events, skipped } = boundedRead(read, row.skipped);
    const proposed = await saveRead(
      deps,
      { row, owner, before, read, events, skipped, now },
      syncEveryMs,
    ).catch((error: unknown) => {
      throw new SaveFailed('The read could not be saved', { cause: error });
    });
    if (proposed.length > 0) deps.onOutboxWrite?.();
    return proposed.length;
  }

  /** Reads the calendar once at connect, so a bad address or password is said at once, not a minute later. */
  async function firstRead(userId: string, body: z.output<typeof calendarConnectBody>, timeZone: string) {
    const now = clock.now();
    const source: CalendarSource =
      body.kind === 'local'
        ? { ...localSource(userId) }
        : {
            kind: body.kind,
            url: body.url,
            calendarRef: null,
            username: body.kind === 'caldav' ? body.username : null,
            password: body.kind === 'caldav' ? body.password : null,
            fetch: deps.fetch,
            parser: deps.parser,
          };
    try {
      return await readCalendar(source, [], { syncToken: null, ctag: null }, windowOf(now, 30, timeZone));
    } catch (error) {
      const { message, field } = refusalOf(error);
      throw new BadRequest(message, field && body.kind !== 'local' ? { [field]: message } : undefined);
    }
  }
  const localSource = (userId: string): CalendarSource => {
    if (!deps.local) throw new BadRequest(m.notConfigured('The local calendar'));
    return {
      kind: 'local',
      url: deps.local.url(userId),
      calendarRef: null,
      username: null,
      password: null,
      fetch: deps.local.fetch,
      parser: deps.parser,
    };
  };

  return { sync, firstRead, sourceOf: (row: ConnectionRow) => sourceOf(deps, row), syncEveryMs };
}
