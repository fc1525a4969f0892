import { screen, waitFor, within } from '@testing-library/react';
import type { CalendarDay } from '@waitlist/contract';
import { describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../../test/fixtures.ts';
import { type MockAnswer, mockSignedIn, type RecordedCall } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { openingsAnswer } from '../../../test/waitlist-fixtures.ts';
import { connectionsAnswer, makeConnection } from '../calendar-fixtures.ts';

type Handler = MockAnswer | ((call: RecordedCall) => MockAnswer | Promise<MockAnswer>);

const tuesday: CalendarDay = {
  date: '2026-03-10',
  days: 1,
  timeZone: 'America/New_York',
  events: [
    {
      connectionId: 'c1',
      title: 'Cut – Priya',
      startsAt: '2026-03-10T14:00:00Z',
      endsAt: '2026-03-10T15:00:00Z',
      ours: false,
    },
  ],
  openings: [
    {
      id: 'op-1',
      startsAt: '2026-03-10T16:00:00Z',
      durationMinutes: 30,
      service: 'Color',
      status: 'filled',
      claimedBy: 'Ana R.',
    },
    {
      id: 'op-2',
      startsAt: '2026-03-10T18:00:00Z',
      durationMinutes: 60,
      service: 'Trim',
      status: 'expired',
      claimedBy: null,
    },
  ],
};

function openDay(path: string, handlers: Record<string, Handler> = {}) {
  const api = mockSignedIn(makeUser(), {
    'GET /calendar/connections': connectionsAnswer([makeConnection()]),
    'GET /calendar/day': { body: { success: true, data: tuesday } },
    'GET /openings': openingsAnswer(),
    ...handlers,
  });
  return { api, app: renderApp(path, { token: 'tok' }) };
}

describe('the day view (issue 29)', () => {
  it('shows the calendar’s events and the openings with their state, in the business’s time', async () => {
    const { api } = openDay('/day?date=2026-03-10');
    const event = await screen.findByTestId('day-event');
    expect(event).toHaveTextContent('Cut – Priya');
    expect(event).toHaveTextContent('10:00 am–11:00 am');
    const [color, trim] = screen.getAllByTestId('day-opening');
    expect(color).toHaveTextContent('12:00 pm–12:30 pm · Claimed by Ana R.');
    expect(color).toHaveAttribute('href', '/openings/op-1');
    expect(trim).toHaveTextContent('Expired');
    expect(api.callsTo('GET /calendar/day')).toHaveLength(1);
    expect(api.fetchMock.mock.calls.some(([url]) => String(url).includes('date=2026-03-10&days=1'))).toBe(
      true,
    );
  });

  it('opens a slot from a free half hour with its date and time filled in', async () => {
    const { app } = openDay('/day?date=2026-03-10');
    await screen.findByTestId('day-event');
    // 10:00–11:00 is taken: no gap to tap there.
    expect(screen.queryByRole('button', { name: /Open a slot at 10:00 am/ })).not.toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Open a slot at 1:30 pm, Tue, Mar 10' }));
    await waitFor(() => expect(app.location()).toBe('/openings?startsAt=2026-03-10T13%3A30'));
    const form = await screen.findByRole('form', { name: 'Open a slot' });
    expect(within(form).getByLabelText('Date')).toHaveValue('2026-03-10');
    expect(within(form).getByLabelText('Time')).toHaveValue('13:30');
  });

  it('moves a day at a time and to a chosen date', async () => {
    const { app, api } = openDay('/day?date=2026-03-10');
    await screen.findByTestId('day-event');
    await app.user.click(screen.getByRole('button', { name: 'Next day' }));
    await waitFor(() => expect(app.location()).toBe('/day?date=2026-03-11'));
    await app.user.click(screen.getByRole('button', { name: 'Previous day' }));
    await app.user.click(screen.getByRole('button', { name: 'Previous day' }));
    await waitFor(() => expect(app.location()).toBe('/day?date=2026-03-09'));
    const urls = api.fetchMock.mock.calls.map(([url]) => String(url));
    expect(urls.some((url) => url.includes('date=2026-03-11'))).toBe(true);
    expect(urls.some((url) => url.includes('date=2026-03-09'))).toBe(true);
  });

  it('shows a week, one column a day, on a wide screen', async () => {
    vi.stubGlobal(
      'matchMedia',
      vi.fn((query: string) => ({ matches: query.includes('min-width: 1024px'), media: query })),
    );
    const week = { ...tuesday, days: 7 };
    const { api } = openDay('/day?date=2026-03-10', {
      'GET /calendar/day': { body: { success: true, data: week } },
    });
    await screen.findByTestId('day-event');
    expect(screen.getByRole('heading', { level: 1, name: 'Week' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Tue, Mar 10' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Mon, Mar 16' })).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Tue, Mar 10' })).getByTestId('day-event'),
    ).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Wed, Mar 11' })).queryByTestId('day-event')).toBeNull();
    expect(api.fetchMock.mock.calls.some(([url]) => String(url).includes('date=2026-03-10&days=7'))).toBe(
      true,
    );
  });

  it('says when no calendar is connected, and where to connect one', async () => {
    openDay('/day?date=2026-03-10', { 'GET /calendar/connections': connectionsAnswer([]) });
    expect(await screen.findByRole('heading', { name: 'No calendar connected' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Connect a calendar' })).toHaveAttribute(
      'href',
      '/settings/calendar',
    );
  });

  it('offers a retry when the day cannot be read', async () => {
    let failing = true;
    const { app } = openDay('/day?date=2026-03-10', {
      'GET /calendar/day': () =>
        failing
          ? { status: 500, body: { success: false, message: 'Failed to load your day' } }
          : { body: { success: true, data: tuesday } },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load your day');
    failing = false;
    await app.user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('day-event')).toBeInTheDocument();
  });
});
