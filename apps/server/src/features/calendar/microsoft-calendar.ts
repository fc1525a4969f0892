import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { StoredEvent } from './calendar.repo.ts';
import { instanceKey } from './calendar-event.ts';
import { CalendarReadError, type ReadResult, type ReadState } from './calendar-reader.ts';
import type { IcsWindow } from './ics.ts';
import { GraphError, graphSession, type MicrosoftApp, type MicrosoftTokens } from './microsoft-auth.ts';

/**
 * Microsoft 365 / Outlook.com through Graph v1.0 with plain `fetch` (see microsoft-auth.ts): the calendar read
 * by calendarView delta (a full round the first time, then the deltaLink's changes; 410 → a full round
 * again), change notifications with lifecycle events (clientState checked), and the bookings we write.
 *
 * Our marker: every booking is created with `transactionId` `waitlist-opening-<openingId>` and a
 * `singleValueExtendedProperties` entry (MICROSOFT_OURS_PROPERTY) valued with the opening's id. The delta
 * query cannot $expand extended properties (nor open extensions), so a read knows ours by the transactionId,
 * which delta returns; the extended property is the durable record, and the transactionId also makes a
 * retried create return the event already made instead of a second one.
 */

export const MICROSOFT_OURS_PROPERTY = 'String {5f3ae4a2-8c4b-4d43-9a6e-0f6b2a7c1d95} Name waitlistOpening';
export const MICROSOFT_TRANSACTION_PREFIX = 'waitlist-opening-';

/** A delta round covers a little more than asked, so it is started again only when the window outgrows it. */
const ROUND_SLACK_MS = 7 * 86_400_000;
const MAX_PAGES = 500;

interface GraphTime {
  dateTime?: string;
  timeZone?: string;
}
export interface GraphEvent {
  id?: string;
  iCalUId?: string;
  subject?: string;
  start?: GraphTime;
  end?: GraphTime;
  isAllDay?: boolean;
  isCancelled?: boolean;
  showAs?: string;
  type?: string;
  originalStart?: string | null;
  transactionId?: string | null;
  singleValueExtendedProperties?: { id: string; value: string }[];
  organizer?: { emailAddress?: { address?: string } };
  attendees?: { type?: string; status?: { response?: string }; emailAddress?: { address?: string } }[];
  '@odata.etag'?: string;
  '@removed'?: { reason?: string };
}

/** Graph's time in UTC (we ask for it with `Prefer: outlook.timezone="UTC"`); anything else is unreadable. */
function utcTime(time: GraphTime | undefined): Date {
  if (!time?.dateTime || (time.timeZone !== 'UTC' && time.timeZone !== 'Etc/UTC'))
    throw new CalendarReadError(`Graph answered a time in ${time?.timeZone ?? 'no time zone'}`, 'unreadable');
  const date = new Date(/Z$|[+-]\d\d:\d\d$/.test(time.dateTime) ? time.dateTime : `${time.dateTime}Z`);
  if (Number.isNaN(date.getTime()))
    throw new CalendarReadError('Graph answered an unreadable time', 'unreadable');
  return date;
}

const sameAddress = (a: string | undefined, b: string | undefined) =>
  Boolean(a && b && a.toLowerCase() === b.toLowerCase());

/** One Graph event (single, occurrence or exception) as the common shape; null for all-day events. */
export function toMicrosoftEvent(item: GraphEvent): StoredEvent | null {
  if (!item.id || item.isAllDay || item.type === 'seriesMaster') return null;
  const organizer = item.organizer?.emailAddress?.address;
  const attendees = (item.attendees ?? []).filter(
    (attendee) =>
      attendee.status?.response !== 'declined' &&
      attendee.type !== 'resource' &&
      !sameAddress(attendee.emailAddress?.address, organizer),
  ).length;
  const marked = (item.singleValueExtendedProperties ?? []).some(
    (property) => property.id.toLowerCase() === MICROSOFT_OURS_PROPERTY.toLowerCase(),
  );
  const occurrence = (item.type === 'occurrence' || item.type === 'exception') && item.originalStart;
  return {
    uid: item.iCalUId ?? item.id,
    recurrenceId: occurrence ? new Date(item.originalStart as string).toISOString() : null,
    start: utcTime(item.start),
    end: utcTime(item.end),
    title: item.subject ?? '',
    status: item.isCancelled ? 'cancelled' : item.showAs === 'tentative' ? 'tentative' : 'confirmed',
    attendees,
    ours: marked || Boolean(item.transactionId?.startsWith(MICROSOFT_TRANSACTION_PREFIX)),
    // The instance's own Graph id: what a later change or @removed names.
    href: item.id,
    etag: item['@odata.etag'] ?? null,
  };
}

type Session = ReturnType<typeof graphSession>;

/** Every page of one delta round (following nextLinks) and the deltaLink the next round starts from. */
async function deltaRound(graph: Session, first: string) {
  const items: GraphEvent[] = [];
  let link: string | undefined = first;
  for (let page = 0; link; page += 1) {
    if (page === MAX_PAGES) throw new CalendarReadError('Graph kept paging', 'unreadable');
    const { body } = await graph.call('GET', link);
    items.push(...((body.value as GraphEvent[] | undefined) ?? []));
    const deltaLink = body['@odata.deltaLink'];
    if (typeof deltaLink === 'string') return { items, deltaLink };
    link = typeof body['@odata.nextLink'] === 'string' ? body['@odata.nextLink'] : undefined;
  }
  throw new CalendarReadError('Graph ended a delta round without a deltaLink', 'unreadable');
}

/** The changes of a round merged into what was read before: `@removed` takes the instance out. */
function merge(before: readonly StoredEvent[], items: GraphEvent[]): StoredEvent[] {
  const byId = new Map(before.map((event) => [event.href ?? instanceKey(event), event]));
  for (const item of items) {
    if (!item.id) continue;
    const was = byId.get(item.id);
    byId.delete(item.id);
    if (item['@removed']) continue;
    const event = toMicrosoftEvent(item);
    // An event we wrote stays ours whatever an app later does to its transactionId.
    if (event) byId.set(item.id, was?.ours ? { ...event, ours: true } : event);
  }
  return [...byId.values()];
}

/** What a round covers, kept in ReadState.ctag: `round:<from ISO>/<to ISO>`. */
const roundOf = (ctag: string | null) => {
  const match = /^round:(.+)\/(.+)$/.exec(ctag ?? '');
  return match ? { from: new Date(match[1] as string), to: new Date(match[2] as string) } : null;
};

/**
 * Reads one Outlook calendar (the default one when `calendarId` is null, on first connect). The first read,
 * a read after Graph forgot the round (410), or one whose window reaches past the round's end, reads the
 * whole window (all pages); the others read only the changes since the last deltaLink, merged into
 * `before`. The deltaLink is kept in ReadState.syncToken, the round's span in ReadState.ctag.
 */
export async function readMicrosoft(
  app: MicrosoftApp,
  tokens: MicrosoftTokens,
  calendarId: string | null,
  state: ReadState,
  window: IcsWindow,
  before: readonly StoredEvent[],
): Promise<ReadResult & { tokens: MicrosoftTokens | null }> {
  const graph = graphSession(app, tokens);
  let calendarRef = calendarId;
  let name = '';
  if (!calendarRef) {
    const { body } = await graph.call('GET', '/v1.0/me/calendars');
    const calendars = (body.value ?? []) as { id?: string; name?: string; isDefaultCalendar?: boolean }[];
    const chosen = calendars.find((calendar) => calendar.isDefaultCalendar) ?? calendars[0];
    if (!chosen?.id) throw new CalendarReadError('The Microsoft account has no calendar', 'no-calendar');
    calendarRef = chosen.id;
    name = chosen.name ?? '';
  }
  const done = (events: StoredEvent[], deltaLink: string, round: { from: Date; to: Date }) => ({
    events,
    state: { syncToken: deltaLink, ctag: `round:${round.from.toISOString()}/${round.to.toISOString()}` },
    name,
    calendarRef,
    requests: graph.requests(),
    tokens: graph.refreshed(),
  });
  const kept = roundOf(state.ctag);
  if (state.syncToken && kept && window.to.getTime() <= kept.to.getTime()) {
    try {
      const changes = await deltaRound(graph, state.syncToken);
      return done(merge(before, changes.items), changes.deltaLink, kept);
    } catch (error) {
      if (!(error instanceof GraphError && error.status === 410)) throw error;
    }
  }
  const round = { from: window.from, to: new Date(window.to.getTime() + ROUND_SLACK_MS) };
  const query = new URLSearchParams({
    startDateTime: round.from.toISOString(),
    endDateTime: round.to.toISOString(),
  });
  const full = await deltaRound(
    graph,
    `/v1.0/me/calendars/${encodeURIComponent(calendarRef)}/calendarView/delta?${query}`,
  );
  return done(merge([], full.items), full.deltaLink, round);
}

export interface MicrosoftSubscription {
  id: string;
  /** Our random secret, sent back by Graph as `clientState` in every notification. */
  clientState: string;
  expiresAt: Date;
}

/** Graph keeps a subscription on Outlook events at most 4230 minutes; we ask a little less. */
const SUBSCRIPTION_MS = 4200 * 60_000;

/**
 * Subscribes to changes of the calendar's events, with lifecycle notifications (reauthorizationRequired,
 * subscriptionRemoved, missed) and a fresh random clientState. Graph first checks both addresses with the
 * validation handshake (`answerValidation`), so the endpoints must be up before this is called.
 */
export async function subscribeMicrosoft(
  app: MicrosoftApp,
  tokens: MicrosoftTokens,
  options: { calendarId: string; notificationUrl: string; lifecycleNotificationUrl: string; now?: Date },
): Promise<{ subscription: MicrosoftSubscription; tokens: MicrosoftTokens | null }> {
  const graph = graphSession(app, tokens);
  const clientState = randomBytes(32).toString('base64url');
  const now = options.now ?? app.now?.() ?? new Date();
  const { body } = await graph.call('POST', '/v1.0/subscriptions', {
    changeType: 'created,updated,deleted',
    notificationUrl: options.notificationUrl,
    lifecycleNotificationUrl: options.lifecycleNotificationUrl,
    resource: `me/calendars/${options.calendarId}/events`,
    expirationDateTime: new Date(now.getTime() + SUBSCRIPTION_MS).toISOString(),
    clientState,
  });
  if (typeof body.id !== 'string')
    throw new CalendarReadError('Graph answered a subscription without id', 'unreadable');
  const expiresAt = new Date(String(body.expirationDateTime));
  return { subscription: { id: body.id, clientState, expiresAt }, tokens: graph.refreshed() };
}

/** Extends a subscription; `expiresAt` null means Graph no longer has it (subscribe again). */
export async function renewMicrosoftSubscription(
  app: MicrosoftApp,
  tokens: MicrosoftTokens,
  subscriptionId: string,
  now: Date = app.now?.() ?? new Date(),
): Promise<{ expiresAt: Date | null; tokens: MicrosoftTokens | null }> {
  const graph = graphSession(app, tokens);
  try {
    const { body } = await graph.call('PATCH', `/v1.0/subscriptions/${encodeURIComponent(subscriptionId)}`, {
      expirationDateTime: new Date(now.getTime() + SUBSCRIPTION_MS).toISOString(),
    });
    return { expiresAt: new Date(String(body.expirationDateTime)), tokens: graph.refreshed() };
  } catch (error) {
    if (error instanceof GraphError && error.status === 404)
      return { expiresAt: null, tokens: graph.refreshed() };
    throw error;
  }
}

/** Ends a subscription; one Graph no longer has is fine. */
export async function deleteMicrosoftSubscription(
  app: MicrosoftApp,
  tokens: MicrosoftTokens,
  subscriptionId: string,
): Promise<{ tokens: MicrosoftTokens | null }> {
  const graph = graphSession(app, tokens);
  try {
    await graph.call('DELETE', `/v1.0/subscriptions/${encodeURIComponent(subscriptionId)}`);
  } catch (error) {
    if (!(error instanceof GraphError && error.status === 404)) throw error;
  }
  return { tokens: graph.refreshed() };
}

/**
 * Graph's validation handshake: a POST with `?validationToken=…` must be answered 200 with the token as
 * text/plain within 10 seconds. Null when the query holds no token (a notification, not a handshake).
 */
export function answerValidation(
  query: Record<string, unknown>,
): { status: 200; contentType: 'text/plain; charset=utf-8'; body: string } | null {
  const token = query.validationToken;
  if (typeof token !== 'string' || token === '' || token.length > 1024) return null;
  return { status: 200, contentType: 'text/plain; charset=utf-8', body: token };
}

export type MicrosoftLifecycleEvent = 'reauthorizationRequired' | 'subscriptionRemoved' | 'missed';
export type MicrosoftNotification =
  | { accepted: false }
  | {
      accepted: true;
      /** Subscriptions whose calendar changed: read it now. */
      changed: string[];
      lifecycle: { subscriptionId: string; event: MicrosoftLifecycleEvent }[];
    };

const LIFECYCLE_EVENTS: readonly string[] = ['reauthorizationRequired', 'subscriptionRemoved', 'missed'];
const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * A notification POSTed to our endpoint, checked item by item: every item's clientState must equal ours
 * (compared in constant time, as digests so the length leaks nothing either); one that does not, or a body
 * that is not Graph's shape, refuses the whole POST. Answers which subscriptions changed and which
 * lifecycle events came; the caller then reads the calendar (a change, `missed`), re-subscribes
 * (`subscriptionRemoved`) or renews (`reauthorizationRequired`).
 */
export function verifyMicrosoftNotification(
  body: unknown,
  expectedClientState: string,
): MicrosoftNotification {
  const items = (body as { value?: unknown } | null)?.value;
  if (!Array.isArray(items) || items.length === 0) return { accepted: false };
  const expected = digest(expectedClientState);
  const changed = new Set<string>();
  const lifecycle: { subscriptionId: string; event: MicrosoftLifecycleEvent }[] = [];
  for (const item of items as Record<string, unknown>[]) {
    const { subscriptionId, clientState, lifecycleEvent } = item ?? {};
    if (typeof subscriptionId !== 'string' || typeof clientState !== 'string') return { accepted: false };
    if (!timingSafeEqual(digest(clientState), expected)) return { accepted: false };
    if (typeof lifecycleEvent === 'string') {
      if (!LIFECYCLE_EVENTS.includes(lifecycleEvent)) return { accepted: false };
      lifecycle.push({ subscriptionId, event: lifecycleEvent as MicrosoftLifecycleEvent });
    } else changed.add(subscriptionId);
  }
  return { accepted: true, changed: [...changed], lifecycle };
}

export interface MicrosoftBooking {
  openingId: string;
  start: Date;
  end: Date;
  customerName: string;
  customerPhone: string;
  serviceName?: string | null;
}

const graphUtc = (date: Date) => ({ dateTime: date.toISOString().replace(/Z$/, ''), timeZone: 'UTC' });

/** Writes a claimed slot into the calendar with the customer's name and phone and our marker. */
export async function writeMicrosoftBooking(
  app: MicrosoftApp,
  tokens: MicrosoftTokens,
  calendarId: string,
  booking: MicrosoftBooking,
): Promise<{ eventId: string; etag: string | null; tokens: MicrosoftTokens | null }> {
  const graph = graphSession(app, tokens);
  const what = booking.serviceName ? `${booking.serviceName} – ` : '';
  const { body } = await graph.call('POST', `/v1.0/me/calendars/${encodeURIComponent(calendarId)}/events`, {
    subject: `${what}${booking.customerName} (${booking.customerPhone})`,
    body: {
      contentType: 'text',
      content: `Booked from the waitlist.\nCustomer: ${booking.customerName}\nPhone: ${booking.customerPhone}`,
    },
    start: graphUtc(booking.start),
    end: graphUtc(booking.end),
    showAs: 'busy',
    // A retried create (its answer lost) returns the event already made: the id is the opening's.
    transactionId: `${MICROSOFT_TRANSACTION_PREFIX}${booking.openingId}`,
    singleValueExtendedProperties: [{ id: MICROSOFT_OURS_PROPERTY, value: booking.openingId }],
  });
  if (typeof body.id !== 'string')
    throw new CalendarReadError('Graph answered an event without id', 'unreadable');
  const etag = typeof body['@odata.etag'] === 'string' ? body['@odata.etag'] : null;
  return { eventId: body.id, etag, tokens: graph.refreshed() };
}

/** Removes a booking we wrote; one already gone (404) is fine. */
export async function deleteMicrosoftBooking(
  app: MicrosoftApp,
  tokens: MicrosoftTokens,
  eventId: string,
): Promise<{ tokens: MicrosoftTokens | null }> {
  const graph = graphSession(app, tokens);
  try {
    await graph.call('DELETE', `/v1.0/me/events/${encodeURIComponent(eventId)}`);
  } catch (error) {
    if (!(error instanceof GraphError && error.status === 404)) throw error;
  }
  return { tokens: graph.refreshed() };
}
