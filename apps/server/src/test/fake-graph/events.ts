import {
  type Answer,
  type DeltaRound,
  type FakeGraphEvent,
  type GraphState,
  graphError,
  notFound,
  randomToken,
} from './state.ts';

/**
 * Events as Graph answers them, calendarView delta and event create/delete. Times are in UTC only when the
 * request said `Prefer: outlook.timezone="UTC"`, else as Pacific Standard Time (UTC−8, naive).
 */

function graphTime(iso: string, utc: boolean) {
  const time = new Date(iso).getTime() - (utc ? 0 : 8 * 3_600_000);
  return {
    // Graph's seven fractional digits, no offset.
    dateTime: new Date(time)
      .toISOString()
      .replace('Z', '')
      .replace(/\.(\d{3})$/, '.$10000'),
    timeZone: utc ? 'UTC' : 'Pacific Standard Time',
  };
}

export function eventJson(event: FakeGraphEvent, utc: boolean) {
  return {
    '@odata.etag': `W/"${event.version}"`,
    id: event.id,
    changeKey: String(event.version),
    iCalUId: event.iCalUId,
    subject: event.subject,
    isAllDay: event.isAllDay,
    isCancelled: event.isCancelled,
    type: event.type,
    seriesMasterId: event.seriesMasterId,
    originalStart: event.originalStart,
    start: graphTime(event.start, utc),
    end: graphTime(event.end, utc),
    showAs: 'busy',
    transactionId: event.transactionId,
    body: event.body ?? { contentType: 'text', content: '' },
    organizer: { emailAddress: { name: event.organizer, address: event.organizer } },
    attendees: event.attendees.map((attendee) => ({
      type: attendee.type ?? 'required',
      status: { response: attendee.response, time: '0001-01-01T00:00:00Z' },
      emailAddress: { name: attendee.address, address: attendee.address },
    })),
  };
}

const inRound = (event: FakeGraphEvent, round: DeltaRound) =>
  !event.deleted &&
  event.calendarId === round.calendarId &&
  new Date(event.end).getTime() > round.from &&
  new Date(event.start).getTime() < round.to;

/** One page of a delta round; a round's items are fixed when it starts, like Graph's snapshot. */
function deltaPage(state: GraphState, items: unknown[], next: DeltaRound): Answer {
  const { fake } = state;
  const rest = items.slice(fake.pageSize);
  const link = `${fake.url}/v1.0/me/calendars/${next.calendarId}/calendarView/delta`;
  const answer: Record<string, unknown> = {
    '@odata.context': `${fake.url}/v1.0/$metadata#Collection(event)`,
    value: items.slice(0, fake.pageSize),
  };
  if (rest.length > 0) {
    const skip = randomToken();
    state.pages.set(skip, { items: rest, next });
    answer['@odata.nextLink'] = `${link}?$skiptoken=${skip}`;
  } else {
    const delta = randomToken();
    state.rounds.set(delta, next);
    answer['@odata.deltaLink'] = `${link}?$deltatoken=${delta}`;
  }
  return { status: 200, body: answer };
}

/** GET …/calendarView/delta: a first round (startDateTime, endDateTime), its next pages, or the changes since. */
export function delta(state: GraphState, calendarId: string, query: URLSearchParams, utc: boolean): Answer {
  const gone = () => graphError(410, 'SyncStateNotFound', 'The sync state generation is not found.');
  const events = [...state.fake.events.values()];
  const skip = query.get('$skiptoken');
  if (skip) {
    const stored = state.pages.get(skip);
    return stored ? deltaPage(state, stored.items, stored.next) : gone();
  }
  const deltaToken = query.get('$deltatoken');
  if (deltaToken) {
    const round = state.rounds.get(deltaToken);
    if (!round) return gone();
    const changed = events.filter((event) => event.calendarId === calendarId && event.version > round.since);
    // Whatever left the view (deleted, moved out of the window) comes back as a bare removed item.
    const items = changed.map((event) =>
      inRound(event, round)
        ? eventJson(event, utc)
        : { id: event.id, '@removed': { reason: event.deleted ? 'deleted' : 'changed' } },
    );
    return deltaPage(state, items, { ...round, since: state.version });
  }
  const from = Date.parse(query.get('startDateTime') ?? query.get('startdatetime') ?? '');
  const to = Date.parse(query.get('endDateTime') ?? query.get('enddatetime') ?? '');
  if (Number.isNaN(from) || Number.isNaN(to))
    return graphError(400, 'ErrorInvalidParameter', 'startDateTime and endDateTime are required.');
  const round = { calendarId, from, to, since: state.version };
  const items = events.filter((event) => inRound(event, round)).map((event) => eventJson(event, utc));
  return deltaPage(state, items, round);
}

interface EventBody {
  subject?: string;
  body?: { contentType: string; content: string };
  start?: { dateTime?: string; timeZone?: string };
  end?: { dateTime?: string; timeZone?: string };
  transactionId?: string;
  singleValueExtendedProperties?: { id: string; value: string }[];
}

/** POST /me/calendars/{id}/events; a transactionId seen before answers the event it made (a retried create). */
export function createEvent(state: GraphState, calendarId: string, body: EventBody, utc: boolean): Answer {
  const { fake } = state;
  if (!fake.calendars.some((calendar) => calendar.id === calendarId)) return notFound();
  if (body.start?.timeZone !== 'UTC' || body.end?.timeZone !== 'UTC')
    return graphError(400, 'ErrorInvalidTimeZone', 'This fake accepts UTC times only.');
  const again = [...fake.events.values()].find(
    (event) => body.transactionId && event.transactionId === body.transactionId && !event.deleted,
  );
  if (again) return { status: 201, body: eventJson(again, utc) };
  const event = fake.addEvent(calendarId, {
    subject: body.subject ?? '',
    start: new Date(`${body.start.dateTime}Z`).toISOString(),
    end: new Date(`${body.end.dateTime}Z`).toISOString(),
    transactionId: body.transactionId ?? null,
    singleValueExtendedProperties: body.singleValueExtendedProperties ?? [],
    body: body.body ?? null,
  });
  return { status: 201, body: eventJson(event, utc) };
}

/** DELETE /me/events/{id}: 404 when it is gone already. */
export function deleteEvent(state: GraphState, id: string): Answer {
  const event = state.fake.events.get(id);
  if (!event || event.deleted) return notFound();
  state.fake.deleteEvent(event.id);
  return { status: 204 };
}
