import { escapeHtml } from '../../lib/html.ts';
import { formatLocal, localDate, localTime } from '../../lib/time-zone.ts';
import { calendarHref } from './local-calendar.dav.ts';
import type { LocalEventSummary } from './local-calendar.ics.ts';
import type { LocalCalendarBusiness } from './local-calendar.service.ts';

/** How far ahead the page lists events. */
export const PAGE_DAYS = 14;

export interface CalendarPage {
  businesses: LocalCalendarBusiness[];
  selected?: LocalCalendarBusiness | undefined;
  events: LocalEventSummary[];
  now: Date;
  /** The owner looked up by email and not found. */
  unknownOwner?: string | undefined;
}

const nameOf = (business: LocalCalendarBusiness) => business.businessName.trim() || business.email;
const minutes = (event: LocalEventSummary) =>
  Math.round((event.end.getTime() - event.start.getTime()) / 60_000);

/** The events the page lists: those not over yet that start within PAGE_DAYS, and every recurring one. */
export function upcoming(events: LocalEventSummary[], now: Date): LocalEventSummary[] {
  const until = now.getTime() + PAGE_DAYS * 24 * 60 * 60 * 1000;
  return events.filter(
    (event) => event.recurring || (event.end.getTime() > now.getTime() && event.start.getTime() < until),
  );
}

function eventItem(event: LocalEventSummary, business: LocalCalendarBusiness): string {
  const action = `/dev/calendar/events/${encodeURIComponent(business.id)}/${encodeURIComponent(event.uid)}`;
  const tz = business.timeZone;
  const button = (name: string, label: string, tone = 'secondary') =>
    `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="action" value="${name}"><button type="submit" class="${tone}">${label}</button></form>`;
  const badges = [
    event.ours ? '<span class="badge ours">booked by Waitlist &amp; Text</span>' : '',
    event.status === 'cancelled' ? '<span class="badge cancelled">cancelled</span>' : '',
    event.recurring ? '<span class="badge">repeats</span>' : '',
  ].join('');
  const attendees =
    event.attendees.length > 0 ? `With ${escapeHtml(event.attendees.join(', '))}` : 'No attendee';
  return `<li class="event" data-uid="${escapeHtml(event.uid)}">
<div><strong>${escapeHtml(event.title || '(no title)')}</strong> ${badges}<br>
<small><time datetime="${event.start.toISOString()}">${escapeHtml(formatLocal(event.start, tz))}</time> · ${minutes(event)} min · ${attendees}</small></div>
<form method="post" action="${escapeHtml(action)}" class="move"><input type="hidden" name="action" value="move">
<label>New date <input type="date" name="date" required value="${localDate(event.start, tz)}"></label>
<label>New start <input type="time" name="time" required value="${localTime(event.start, tz)}"></label>
<button type="submit" class="secondary">Move</button></form>
<div class="actions">
${event.status === 'cancelled' ? '' : button('cancel', 'Cancel')}
${event.attendees.length > 0 ? button('remove-attendee', 'Remove attendee') : ''}
${button('delete', 'Delete', 'danger')}
</div></li>`;
}

function businessSection(page: CalendarPage, business: LocalCalendarBusiness): string {
  const events = upcoming(page.events, page.now);
  const list = events.map((event) => eventItem(event, business)).join('\n');
  const tz = business.timeZone;
  return `<h2>${escapeHtml(nameOf(business))}</h2>
<p class="lead">Times in ${escapeHtml(tz)}. CalDAV address: <code>${escapeHtml(calendarHref(business.id))}</code> (any username and password).</p>
<section aria-label="Add an event"><form method="post" action="/dev/calendar/events" class="add">
<input type="hidden" name="userId" value="${escapeHtml(business.id)}">
<label class="grow">Title <input name="title" required maxlength="200" placeholder="Cut – Priya"></label>
<label>Date <input type="date" name="date" required value="${localDate(page.now, tz)}"></label>
<label>Start <input type="time" name="time" required value="${localTime(new Date(page.now.getTime() + 60 * 60 * 1000), tz).slice(0, 3)}00"></label>
<label>Minutes <input type="number" name="minutes" required min="5" max="1440" value="30"></label>
<label>Attendee <input name="attendee" maxlength="100" placeholder="optional"></label>
<button type="submit">Add event</button></form></section>
<h3>Next ${PAGE_DAYS} days</h3>
${list ? `<ul class="events" aria-label="Events">${list}</ul>` : '<p class="empty">No events in the next 14 days. Add one above.</p>'}`;
}

/** The /dev/calendar page: the businesses, and one business's next two weeks with its edit forms. */
export function renderCalendarPage(page: CalendarPage): string {
  const nav = page.businesses
    .map(
      (business) =>
        `<li><a href="/dev/calendar?userId=${encodeURIComponent(business.id)}"${business.id === page.selected?.id ? ' aria-current="page"' : ''}>${escapeHtml(nameOf(business))}</a></li>`,
    )
    .join('');
  const lookup = `<form method="get" action="/dev/calendar" class="add">
<label class="grow">Owner's email <input type="email" name="owner" required placeholder="owner@example.com" value="${escapeHtml(page.unknownOwner ?? '')}"></label>
<button type="submit">Open calendar</button></form>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Dev calendar · Waitlist &amp; Text</title>
<style>
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;background:#f5f6fa;color:#111827;margin:0;padding:24px}
main{max-width:760px;margin:auto}h1{font-size:22px;margin:0 0 4px}p.lead{color:#4b5563;margin:0 0 16px}
nav ul{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:8px;margin:0 0 16px}
nav a{display:block;padding:6px 12px;border-radius:999px;background:#fff;border:1px solid #e5e7eb;color:#4338ca;text-decoration:none}
nav a[aria-current]{background:#4338ca;color:#fff}
form{display:flex;gap:8px;flex-wrap:wrap;align-items:end;margin:0}label{display:flex;flex-direction:column;font-size:13px;gap:4px}
form.add{background:#fff;border:1px solid #e5e7eb;border-radius:12px;padding:16px;margin-bottom:16px}
form.add label,form.move label{flex:1 1 130px;min-width:0}form.add label.grow{flex:1 1 220px}
input{font:inherit;font-size:15px;padding:8px;border:1px solid #cbd5e1;border-radius:8px;box-sizing:border-box;width:100%;min-width:0}
button{font:inherit;font-size:15px;padding:8px 16px;border:0;border-radius:8px;background:#4338ca;color:#fff;cursor:pointer}
button.secondary{background:#eef2ff;color:#4338ca}button.danger{background:#fee2e2;color:#991b1b}
form.move button,.actions button{padding:6px 12px;font-size:14px}code{overflow-wrap:anywhere}
ul.events{list-style:none;padding:0;display:flex;flex-direction:column;gap:8px}
li.event{background:#fff;border:1px solid #e5e7eb;border-radius:12px;padding:12px 16px;display:flex;flex-direction:column;gap:8px}
.actions{display:flex;flex-wrap:wrap;gap:8px;align-items:end}small{color:#4b5563}
.badge{font-size:12px;padding:2px 8px;border-radius:999px;background:#e5e7eb;margin-left:4px}
.badge.ours{background:#dcfce7;color:#166534}.badge.cancelled{background:#fee2e2;color:#991b1b}
.empty{background:#fff;border:1px dashed #cbd5e1;border-radius:12px;padding:24px;text-align:center;color:#4b5563}
</style></head><body><main>
<h1>Dev calendar</h1><p class="lead">Each business's local calendar on this machine, served as CalDAV so the calendar sync can be tried offline. Add, move, cancel or delete events here as the owner would in a calendar app.</p>
${nav ? `<nav aria-label="Businesses"><ul>${nav}</ul></nav>` : ''}
${lookup}
${page.unknownOwner ? `<p class="empty" role="alert">No business uses ${escapeHtml(page.unknownOwner)}.</p>` : ''}
${page.selected ? businessSection(page, page.selected) : ''}
</main></body></html>`;
}
