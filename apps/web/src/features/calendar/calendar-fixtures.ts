import type { CalendarConnection, CalendarKind, CalendarProposal } from '@waitlist/contract';

let nextId = 1;
const id = () => `cal-${nextId++}`;

/** A connected calendar as GET /calendar/connections lists it. */
export const makeConnection = (overrides: Partial<CalendarConnection> = {}): CalendarConnection => ({
  id: id(),
  kind: 'caldav',
  name: 'Salon',
  url: 'https://caldav.example.com/cal/salon/',
  account: 'bella@example.com',
  mode: 'ask',
  horizonDays: 7,
  graceMinutes: 5,
  exclude: ['Lunch', 'Blocked'],
  rules: [],
  writesBookings: true,
  liveUpdates: false,
  status: 'ok',
  lastSyncedAt: new Date(Date.now() - 2 * 60_000).toISOString(),
  lastError: null,
  failures: 0,
  nextSyncAt: new Date(Date.now() + 45_000).toISOString(),
  skipped: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

export const connectionsAnswer = (
  data: CalendarConnection[] = [],
  available: CalendarKind[] = ['caldav', 'ics', 'local'],
) => ({ body: { success: true, data, available } });

export const makeProposal = (overrides: Partial<CalendarProposal> = {}): CalendarProposal => ({
  id: id(),
  connectionId: 'cal-x',
  title: 'Cut – Priya',
  startsAt: new Date(Date.now() + 3_600_000).toISOString(),
  durationMinutes: 45,
  serviceId: null,
  staffId: null,
  priceCents: null,
  reason: 'deleted',
  status: 'proposed',
  opensAt: null,
  openingId: null,
  createdAt: new Date().toISOString(),
  ...overrides,
});

/** Today at the given hour and minute on this machine's clock, as an ISO instant. */
export function todayAt(hours: number, minutes: number): string {
  const date = new Date();
  date.setHours(hours, minutes, 0, 0);
  return date.toISOString();
}
