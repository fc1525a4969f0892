import { isStorableText } from '@waitlist/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { LocalCalendarRow } from './local-calendar.repo.ts';
import type { LocalCalendarBusiness, LocalCalendarService } from './local-calendar.service.ts';
import {
  CALDAV,
  CALSERVER,
  child,
  DAV,
  davError,
  element,
  escapeXml,
  multistatus,
  type PropName,
  parseXml,
  propResponse,
  requestedProps,
  statusResponse,
  type XmlNode,
} from './local-calendar.xml.ts';

/**
 * The local calendar served as CalDAV, enough of RFC 4918, 4791 and 6578 for tsdav and the app's sync: one
 * calendar per business at `/dev/calendar/dav/{userId}/`, which is also its principal and calendar home (so
 * discovery is two PROPFINDs), with one `{name}.ics` per event. Any Basic credentials or none are accepted:
 * this is the machine's own tool, behind the local-tools guard like /dev/phone.
 */

export const DAV_PREFIX = '/dev/calendar/dav';
export const calendarHref = (userId: string) => `${DAV_PREFIX}/${userId}/`;
/**
 * An event's href, spelled as a URL parser spells the path a client PUT to (`@`, `:`, `+` left as they are),
 * so the href a client wrote and the one a sync reports are the same string; `%`, `/`, `?`, `#` and a
 * backslash are escaped, as a resource name cannot hold them otherwise.
 */
export const objectHref = (userId: string, uid: string) =>
  new URL(`${uid.replace(/[%/?#\\]/g, encodeURIComponent)}.ics`, `http://localhost${calendarHref(userId)}`)
    .pathname;

const SYNC_TOKEN_PREFIX = 'urn:waitlist-and-text:local-calendar:sync:';
const syncToken = (seq: number) => `${SYNC_TOKEN_PREFIX}${seq}`;
/** The seq of a token this calendar gave; null for anything else. */
function seqOfToken(token: string): number | null {
  if (!token.startsWith(SYNC_TOKEN_PREFIX)) return null;
  const digits = token.slice(SYNC_TOKEN_PREFIX.length);
  return /^\d{1,15}$/.test(digits) ? Number(digits) : null;
}

/** A resource name from a path: `{name}.ics`, the name storable and short; null for anything else. */
export function uidOfObjectName(name: string): string | null {
  if (!name.toLowerCase().endsWith('.ics')) return null;
  const uid = name.slice(0, -4);
  if (uid === '' || uid.length > 255 || uid.includes('/') || !isStorableText(uid)) return null;
  return uid;
}

const XML = 'application/xml; charset=utf-8';
const COLLECTION_PROPS: PropName[] = [
  { ns: DAV, name: 'resourcetype' },
  { ns: DAV, name: 'displayname' },
  { ns: DAV, name: 'current-user-principal' },
  { ns: CALDAV, name: 'calendar-home-set' },
  { ns: CALSERVER, name: 'getctag' },
  { ns: DAV, name: 'sync-token' },
  { ns: CALDAV, name: 'supported-calendar-component-set' },
  { ns: DAV, name: 'supported-report-set' },
];
const OBJECT_PROPS: PropName[] = [
  { ns: DAV, name: 'getetag' },
  { ns: DAV, name: 'getcontenttype' },
  { ns: DAV, name: 'resourcetype' },
];

const REPORTS = [
  [CALDAV, 'calendar-query'],
  [CALDAV, 'calendar-multiget'],
  [DAV, 'sync-collection'],
] as const;

/** The value of one collection property, or undefined when the collection has none of that name. */
function collectionProp(prop: PropName, business: LocalCalendarBusiness, seq: number): string | undefined {
  const home = element(DAV, 'href', escapeXml(calendarHref(business.id)));
  const key = `${prop.ns}|${prop.name}`;
  switch (key) {
    case `${DAV}|resourcetype`:
      return element(DAV, 'resourcetype', element(DAV, 'collection') + element(CALDAV, 'calendar'));
    case `${DAV}|displayname`: {
      const name = business.businessName.trim() || business.email;
      return element(DAV, 'displayname', escapeXml(`${name} (local calendar)`));
    }
    case `${DAV}|current-user-principal`:
    case `${DAV}|principal-URL`:
    case `${DAV}|owner`:
      return element(DAV, prop.name, home);
    case `${CALDAV}|calendar-home-set`:
      return element(CALDAV, 'calendar-home-set', home);
    case `${CALSERVER}|getctag`:
    case `${DAV}|sync-token`:
      return element(prop.ns, prop.name, escapeXml(syncToken(seq)));
    case `${CALDAV}|supported-calendar-component-set`:
      return element(CALDAV, prop.name, '<C:comp name="VEVENT"/>');
    case `${DAV}|supported-report-set`:
      return element(
        DAV,
        prop.name,
        REPORTS.map(([ns, name]) =>
          element(DAV, 'supported-report', element(DAV, 'report', element(ns, name))),
        ).join(''),
      );
    default:
      return undefined;
  }
}

/** The value of one event property, or undefined when an event has none of that name. */
function objectProp(prop: PropName, row: LocalCalendarRow): string | undefined {
  const key = `${prop.ns}|${prop.name}`;
  if (key === `${DAV}|getetag`) return element(DAV, 'getetag', escapeXml(row.etag));
  if (key === `${DAV}|getcontenttype`)
    return element(DAV, 'getcontenttype', 'text/calendar; charset=utf-8; component=VEVENT');
  if (key === `${DAV}|resourcetype`) return '<D:resourcetype/>';
  if (key === `${CALDAV}|calendar-data`) return element(CALDAV, 'calendar-data', escapeXml(row.ics));
  return undefined;
}

/** The asked properties split into those the resource has (their XML) and those it has not. */
function answer(asked: PropName[], propValue: (prop: PropName) => string | undefined) {
  const found: string[] = [];
  const missing: PropName[] = [];
  for (const prop of asked) {
    const value = propValue(prop);
    if (value === undefined) missing.push(prop);
    else found.push(value);
  }
  return { found, missing };
}

const objectResponse = (userId: string, row: LocalCalendarRow, asked: PropName[] | null) => {
  const { found, missing } = answer(asked ?? OBJECT_PROPS, (prop) => objectProp(prop, row));
  return propResponse(objectHref(userId, row.uid), found, missing);
};

const bodyText = (request: FastifyRequest) => (typeof request.body === 'string' ? request.body : '');
const sendXml = (reply: FastifyReply, status: number, body: string) =>
  reply.status(status).type(XML).send(body);

type DavParams = { userId: string; object?: string };

/** The CalDAV routes, on a Fastify instance that parses text/xml and text/calendar bodies as strings. */
export function registerCalDav(app: FastifyInstance, calendar: LocalCalendarService) {
  if (!app.supportedMethods.includes('PROPFIND')) app.addHttpMethod('PROPFIND', { hasBody: true });
  if (!app.supportedMethods.includes('REPORT')) app.addHttpMethod('REPORT', { hasBody: true });
  registerCollectionRoutes(app, calendar);
  registerObjectRoutes(app, calendar);
}

const hidden = { schema: { hide: true } };

/** The business of the path, or a 404 sent (an unknown id or one that is no UUID). */
async function businessOr404(
  calendar: LocalCalendarService,
  request: FastifyRequest<{ Params: DavParams }>,
  reply: FastifyReply,
) {
  const business = await calendar.business(request.params.userId);
  if (!business) sendXml(reply, 404, davError(DAV, 'resource-must-be-null'));
  return business;
}

function registerCollectionRoutes(app: FastifyInstance, calendar: LocalCalendarService) {
  app.route<{ Params: DavParams }>({
    method: 'PROPFIND',
    url: `${DAV_PREFIX}/:userId/`,
    ...hidden,
    handler: async (request, reply) => {
      const business = await businessOr404(calendar, request, reply);
      if (!business) return reply;
      const asked = requestedProps(parseXml(bodyText(request)));
      const seq = await calendar.latestSeq(business.id);
      const self = answer(asked ?? COLLECTION_PROPS, (prop) => collectionProp(prop, business, seq));
      const responses = [propResponse(calendarHref(business.id), self.found, self.missing)];
      if (request.headers.depth !== '0') {
        for (const row of await calendar.objects(business.id))
          responses.push(objectResponse(business.id, row, asked));
      }
      return sendXml(reply, 207, multistatus(responses));
    },
  });

  app.route<{ Params: DavParams }>({
    method: 'REPORT',
    url: `${DAV_PREFIX}/:userId/`,
    ...hidden,
    handler: async (request, reply) => {
      const business = await businessOr404(calendar, request, reply);
      if (!business) return reply;
      const root = parseXml(bodyText(request));
      if (!root) return sendXml(reply, 400, davError(DAV, 'supported-report'));
      return report(calendar, reply, business.id, root);
    },
  });
}

async function report(calendar: LocalCalendarService, reply: FastifyReply, userId: string, root: XmlNode) {
  const asked = requestedProps(root);
  if (root.ns === CALDAV && root.name === 'calendar-query') {
    // Every event is a VEVENT and the client filters by time itself: the query answers with all of them.
    const rows = await calendar.objects(userId);
    return sendXml(reply, 207, multistatus(rows.map((row) => objectResponse(userId, row, asked))));
  }
  if (root.ns === CALDAV && root.name === 'calendar-multiget') {
    const responses: string[] = [];
    for (const href of root.children.filter((node) => node.ns === DAV && node.name === 'href')) {
      const uid = uidOfHref(userId, href.text);
      const row = uid ? await calendar.live(userId, uid) : undefined;
      responses.push(row ? objectResponse(userId, row, asked) : statusResponse(href.text, '404 Not Found'));
    }
    return sendXml(reply, 207, multistatus(responses));
  }
  if (root.ns === DAV && root.name === 'sync-collection')
    return syncCollection(calendar, reply, userId, root);
  return sendXml(reply, 403, davError(DAV, 'supported-report'));
}

/** RFC 6578: what changed since the token (deleted ones as 404), or 403 valid-sync-token for a strange one. */
async function syncCollection(
  calendar: LocalCalendarService,
  reply: FastifyReply,
  userId: string,
  root: XmlNode,
) {
  const token = child(root, DAV, 'sync-token')?.text.trim() ?? '';
  const since = token === '' ? 0 : seqOfToken(token);
  const changes = since === null ? null : await calendar.changesSince(userId, since);
  if (!changes) return sendXml(reply, 403, davError(DAV, 'valid-sync-token'));
  const asked = requestedProps(root);
  const responses = changes.rows
    // A first sync (no token) lists what is there; a deletion it never saw is no news to it.
    .filter((row) => !(token === '' && row.deleted))
    .map((row) =>
      row.deleted
        ? statusResponse(objectHref(userId, row.uid), '404 Not Found')
        : objectResponse(userId, row, asked),
    );
  const tokenXml = element(DAV, 'sync-token', escapeXml(syncToken(changes.latest)));
  return sendXml(reply, 207, multistatus(responses, tokenXml));
}

function registerObjectRoutes(app: FastifyInstance, calendar: LocalCalendarService) {
  const path = `${DAV_PREFIX}/:userId/:object`;
  const uidOf = (params: DavParams) => uidOfObjectName(params.object ?? '');
  const noEvent = (reply: FastifyReply) =>
    reply.status(404).type('text/plain; charset=utf-8').send('No such event.');

  app.route<{ Params: DavParams }>({
    method: 'PROPFIND',
    url: path,
    ...hidden,
    handler: async (request, reply) => {
      const business = await businessOr404(calendar, request, reply);
      if (!business) return reply;
      const uid = uidOf(request.params);
      const row = uid ? await calendar.live(business.id, uid) : undefined;
      if (!row) return sendXml(reply, 404, davError(DAV, 'resource-must-be-null'));
      const asked = requestedProps(parseXml(bodyText(request)));
      return sendXml(reply, 207, multistatus([objectResponse(business.id, row, asked)]));
    },
  });

  app.get<{ Params: DavParams }>(path, hidden, async (request, reply) => {
    const business = await businessOr404(calendar, request, reply);
    if (!business) return reply;
    const uid = uidOf(request.params);
    const row = uid ? await calendar.live(business.id, uid) : undefined;
    if (!row) return noEvent(reply);
    return reply.header('etag', row.etag).type('text/calendar; charset=utf-8').send(row.ics);
  });

  app.put<{ Params: DavParams }>(path, hidden, async (request, reply) => {
    const business = await businessOr404(calendar, request, reply);
    if (!business) return reply;
    const uid = uidOf(request.params);
    const ics = bodyText(request);
    if (!uid) return reply.status(403).type('text/plain; charset=utf-8').send('Events are named {name}.ics.');
    if (!isStorableText(ics)) return sendXml(reply, 400, davError(CALDAV, 'valid-calendar-data'));
    const written = await calendar.put(business.id, uid, ics, {
      ifMatch: header(request, 'if-match'),
      ifNoneMatch: header(request, 'if-none-match'),
    });
    if (written.outcome === 'not-an-event')
      return sendXml(reply, 400, davError(CALDAV, 'valid-calendar-data'));
    if (written.outcome === 'precondition-failed') return reply.status(412).send();
    return reply
      .status(written.outcome === 'created' ? 201 : 204)
      .header('etag', written.etag)
      .send();
  });

  app.delete<{ Params: DavParams }>(path, hidden, async (request, reply) => {
    const business = await businessOr404(calendar, request, reply);
    if (!business) return reply;
    const uid = uidOf(request.params);
    const outcome = uid
      ? await calendar.remove(business.id, uid, { ifMatch: header(request, 'if-match') })
      : 'not-found';
    if (outcome === 'not-found') return noEvent(reply);
    if (outcome === 'precondition-failed') return reply.status(412).send();
    return reply.status(204).send();
  });
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/** The resource name an href of a multiget names, when it is an event of this calendar. */
function uidOfHref(userId: string, href: string): string | null {
  let path: string;
  try {
    path = new URL(href.trim(), 'http://localhost').pathname;
  } catch {
    return null;
  }
  const base = calendarHref(userId);
  if (!path.startsWith(base)) return null;
  try {
    return uidOfObjectName(decodeURIComponent(path.slice(base.length)));
  } catch {
    return null;
  }
}
