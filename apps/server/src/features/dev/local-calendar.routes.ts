import type { FastifyInstance, FastifyPluginAsync, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { parseStartsAt } from '../../lib/time-zone.ts';
import { objectHref, registerCalDav } from './local-calendar.dav.ts';
import type { LocalEventEdit, LocalEventSummary } from './local-calendar.ics.ts';
import { renderCalendarPage } from './local-calendar.page.ts';
import {
  createLocalCalendarService,
  type LocalCalendarBusiness,
  type LocalCalendarBusinesses,
  type LocalCalendarService,
} from './local-calendar.service.ts';

export { localCalendarFetch } from './local-calendar.fetch.ts';

const firstIssue = (error: z.ZodError) => error.issues[0]!.message;
const userId = z.string({ error: 'userId is required' }).min(1, 'userId is required').max(100);
const title = z.string({ error: 'title is required' }).trim().min(1, 'title is required').max(200);
const durationMinutes = z.coerce
  .number({ error: 'Give the length in minutes' })
  .int('Give the length in whole minutes')
  .min(5, 'An event lasts at least 5 minutes')
  .max(1440, 'An event lasts at most 1440 minutes');
const attendee = z.string().trim().max(100, 'At most 100 characters').optional().nullable();
const startsAt = z.string({ error: 'startsAt is required' }).max(40);

const addJson = z.object({ userId, title, startsAt, durationMinutes, attendee });
const editJson = z
  .object({
    startsAt: startsAt.optional(),
    status: z.enum(['cancelled']).optional(),
    removeAttendees: z.boolean().optional(),
  })
  .refine((edit) => edit.startsAt || edit.status || edit.removeAttendees, {
    message: 'Give startsAt, status: "cancelled" or removeAttendees: true',
  });
const date = z
  .string({ error: 'date is required' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-11-24');
const time = z.string({ error: 'time is required' }).regex(/^\d{2}:\d{2}$/, 'Use a time like 15:30');
const addForm = z.object({ userId, title, date, time, minutes: durationMinutes, attendee });
const editForm = z.discriminatedUnion('action', [
  z.object({ action: z.literal('move'), date, time }),
  z.object({ action: z.literal('cancel') }),
  z.object({ action: z.literal('remove-attendee') }),
  z.object({ action: z.literal('delete') }),
]);
const eventParams = z.object({ userId, uid: z.string().min(1).max(255) });
const pageQuery = z.object({ userId: z.string().max(100).optional(), owner: z.string().max(320).optional() });

const toJson = (userIdOf: string, event: LocalEventSummary & { etag: string }) => ({
  uid: event.uid,
  href: objectHref(userIdOf, event.uid),
  etag: event.etag,
  title: event.title,
  startsAt: event.start.toISOString(),
  endsAt: event.end.toISOString(),
  durationMinutes: Math.round((event.end.getTime() - event.start.getTime()) / 60_000),
  status: event.status,
  attendees: event.attendees,
  ours: event.ours,
  recurring: event.recurring,
});

const fail = (reply: FastifyReply, status: number, message: string) =>
  reply.status(status).send({ success: false, message });
const noBusiness = 'No business has that id.';
const noEvent = 'No such event in this calendar.';

/**
 * The local calendar (issue 29's embedded default), registered with the local tools whatever the providers:
 * CalDAV at /dev/calendar/dav/{userId}/ (local-calendar.dav.ts), the /dev/calendar page with plain forms
 * answering 303 back to it, and a JSON twin at /api/v1/dev/calendar/events for scripts and end-to-end tests.
 */
export const localCalendarRoutes: FastifyPluginAsync<{
  db: Database;
  clock: Clock;
  /** The owners as the local calendar sees them (features/auth's repo owns `users`). */
  businesses: LocalCalendarBusinesses;
}> = async (app, { db, clock, businesses }) => {
  const calendar = createLocalCalendarService({ db, clock, businesses });
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  app.addContentTypeParser(
    ['text/xml', 'application/xml', 'text/calendar', 'text/plain'],
    { parseAs: 'string', bodyLimit: 256 * 1024 },
    (_request, body, done) => done(null, String(body)),
  );
  registerCalDav(app, calendar);
  registerJsonTwin(app, calendar);
  registerPage(app, calendar, clock);
};

/** Applies a form's or the JSON twin's edit; false when there is no such event. */
function applyEdit(
  calendar: LocalCalendarService,
  business: LocalCalendarBusiness,
  uid: string,
  edit: LocalEventEdit | 'delete',
) {
  if (edit === 'delete') return calendar.remove(business.id, uid).then((outcome) => outcome === 'deleted');
  return calendar.edit(business.id, uid, edit);
}

function registerJsonTwin(app: FastifyInstance, calendar: LocalCalendarService) {
  const hidden = { schema: { hide: true } };
  const base = '/api/v1/dev/calendar/events';

  app.get(base, hidden, async (request, reply) => {
    const query = z.object({ userId }).safeParse(request.query);
    if (!query.success) return fail(reply, 400, firstIssue(query.error));
    const business = await calendar.business(query.data.userId);
    if (!business) return fail(reply, 404, noBusiness);
    const events = await calendar.summaries(business);
    return { success: true, data: events.map((event) => toJson(business.id, event)) };
  });

  app.post(base, hidden, async (request, reply) => {
    const body = addJson.safeParse(request.body);
    if (!body.success) return fail(reply, 400, firstIssue(body.error));
    const business = await calendar.business(body.data.userId);
    if (!business) return fail(reply, 404, noBusiness);
    const start = parseStartsAt(body.data.startsAt, business.timeZone);
    if (!start) return fail(reply, 400, 'startsAt: use 2026-11-24T15:30 (the business’s time) or ISO 8601');
    const uid = await calendar.add(business.id, { ...body.data, start });
    const event = (await calendar.summaries(business)).find((candidate) => candidate.uid === uid)!;
    return reply.status(201).send({ success: true, data: toJson(business.id, event) });
  });

  app.patch(`${base}/:userId/:uid`, hidden, async (request, reply) => {
    const params = eventParams.safeParse(request.params);
    const body = editJson.safeParse(request.body);
    if (!params.success) return fail(reply, 400, firstIssue(params.error));
    if (!body.success) return fail(reply, 400, firstIssue(body.error));
    const business = await calendar.business(params.data.userId);
    if (!business) return fail(reply, 404, noBusiness);
    const start = body.data.startsAt ? parseStartsAt(body.data.startsAt, business.timeZone) : undefined;
    if (start === null) return fail(reply, 400, 'startsAt: use 2026-11-24T15:30 or ISO 8601');
    const edit = {
      startsAt: start,
      cancel: body.data.status === 'cancelled',
      removeAttendees: body.data.removeAttendees === true,
    };
    if (!(await applyEdit(calendar, business, params.data.uid, edit))) return fail(reply, 404, noEvent);
    const event = (await calendar.summaries(business)).find((candidate) => candidate.uid === params.data.uid);
    return { success: true, data: event ? toJson(business.id, event) : null };
  });

  app.delete(`${base}/:userId/:uid`, hidden, async (request, reply) => {
    const params = eventParams.safeParse(request.params);
    if (!params.success) return fail(reply, 400, firstIssue(params.error));
    const business = await calendar.business(params.data.userId);
    if (!business) return fail(reply, 404, noBusiness);
    if (!(await applyEdit(calendar, business, params.data.uid, 'delete'))) return fail(reply, 404, noEvent);
    return { success: true };
  });
}

function registerPage(app: FastifyInstance, calendar: LocalCalendarService, clock: Clock) {
  const hidden = { schema: { hide: true } };
  const back = (reply: FastifyReply, id: string) =>
    reply.redirect(`/dev/calendar?userId=${encodeURIComponent(id)}`, 303);

  app.get('/dev/calendar', hidden, async (request, reply) => {
    const query = pageQuery.safeParse(request.query);
    const wanted = query.success ? query.data : {};
    const selected = wanted.owner
      ? await calendar.businessByEmail(wanted.owner)
      : wanted.userId
        ? await calendar.business(wanted.userId)
        : undefined;
    const listed = await calendar.businessesWithCalendars();
    if (selected && !listed.some((business) => business.id === selected.id)) listed.unshift(selected);
    const html = renderCalendarPage({
      businesses: listed,
      selected,
      events: selected ? await calendar.summaries(selected) : [],
      now: clock.now(),
      unknownOwner: wanted.owner && !selected ? wanted.owner : undefined,
    });
    return reply.type('text/html; charset=utf-8').send(html);
  });

  app.post('/dev/calendar/events', hidden, async (request, reply) => {
    const form = addForm.safeParse(request.body);
    if (!form.success) return fail(reply, 400, firstIssue(form.error));
    const business = await calendar.business(form.data.userId);
    if (!business) return fail(reply, 404, noBusiness);
    const start = parseStartsAt(`${form.data.date}T${form.data.time}`, business.timeZone);
    if (!start) return fail(reply, 400, 'Give a real date and time');
    await calendar.add(business.id, {
      title: form.data.title,
      start,
      durationMinutes: form.data.minutes,
      attendee: form.data.attendee || null,
    });
    return back(reply, business.id);
  });

  app.post('/dev/calendar/events/:userId/:uid', hidden, async (request, reply) => {
    const params = eventParams.safeParse(request.params);
    const form = editForm.safeParse(request.body);
    if (!params.success) return fail(reply, 400, firstIssue(params.error));
    if (!form.success) return fail(reply, 400, firstIssue(form.error));
    const business = await calendar.business(params.data.userId);
    if (!business) return fail(reply, 404, noBusiness);
    let edit: LocalEventEdit | 'delete';
    if (form.data.action === 'move') {
      const start = parseStartsAt(`${form.data.date}T${form.data.time}`, business.timeZone);
      if (!start) return fail(reply, 400, 'Give a real date and time');
      edit = { startsAt: start };
    } else if (form.data.action === 'cancel') edit = { cancel: true };
    else if (form.data.action === 'remove-attendee') edit = { removeAttendees: true };
    else edit = 'delete';
    if (!(await applyEdit(calendar, business, params.data.uid, edit))) return fail(reply, 404, noEvent);
    return back(reply, business.id);
  });
}
