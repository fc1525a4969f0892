import { screen, within } from '@testing-library/react';
import type { Earnings } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../test/fixtures.ts';
import { mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

type Period = Earnings['period'];

const emptyPeriod: Period = {
  range: 'month',
  from: '2026-11-01',
  to: '2026-11-23',
  timeZone: 'America/New_York',
  revenueRecoveredCents: 0,
  fillRate: null,
  openingsFilled: 0,
  openingsOpened: 0,
  openingsDecided: 0,
  medianMinutesToClaim: null,
  textsSent: 0,
  textsDelivered: 0,
  segmentsSent: 0,
  optOuts: 0,
  waitlistSize: 0,
  alertsByLanguage: { en: 0, es: 0 },
  hasSpanishCustomers: false,
  weeks: [],
};

const empty: Earnings = {
  revenueRecoveredCents: 0,
  alertsSent: 0,
  fillRate: 0,
  avgTimeToFillMinutes: null,
  openingsFilled: 0,
  period: emptyPeriod,
};

const withDataPeriod: Period = {
  ...emptyPeriod,
  revenueRecoveredCents: 123_450,
  openingsOpened: 5,
  openingsFilled: 3,
  openingsDecided: 4,
  fillRate: 0.75,
  medianMinutesToClaim: 12,
  textsSent: 1234,
  textsDelivered: 1200,
  segmentsSent: 1300,
  optOuts: 2,
  waitlistSize: 40,
  weeks: [
    {
      weekStart: '2026-10-26',
      revenueRecoveredCents: 0,
      openingsOpened: 0,
      openingsFilled: 0,
      fillRate: null,
    },
    {
      weekStart: '2026-11-02',
      revenueRecoveredCents: 6500,
      openingsOpened: 2,
      openingsFilled: 1,
      fillRate: 0.5,
    },
    {
      weekStart: '2026-11-16',
      revenueRecoveredCents: 116_950,
      openingsOpened: 2,
      openingsFilled: 2,
      fillRate: 1,
    },
  ],
};

const withData: Earnings = {
  revenueRecoveredCents: 123_450,
  alertsSent: 4,
  fillRate: 0.75,
  avgTimeToFillMinutes: 12,
  openingsFilled: 3,
  period: withDataPeriod,
};

/** An owner with alerts before the range, none in it: zeros, not the new-owner empty state. */
const quietRange: Earnings = { ...withData, period: { ...emptyPeriod, waitlistSize: 40 } };

const answer = (data: Earnings) => ({ body: { success: true, data } });
const requestedUrls = (fetchMock: { mock: { calls: unknown[][] } }) =>
  fetchMock.mock.calls.map(([input]) => String(input)).filter((url) => url.includes('/dashboard/earnings'));

describe('dashboard', () => {
  it('is in the header navigation', async () => {
    mockSignedIn(makeUser(), { 'GET /dashboard/earnings': answer(empty) });
    renderApp('/openings', { token: 'tok' });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
  });

  it('shows a new owner what will appear and how to get there', async () => {
    mockSignedIn(makeUser(), { 'GET /dashboard/earnings': answer(empty) });
    renderApp('/dashboard', { token: 'tok' });
    const heading = await screen.findByRole('heading', { name: 'Your earnings will show here' });
    const card = heading.parentElement as HTMLElement;
    expect(within(card).getByRole('link', { name: 'Get your text number' })).toHaveAttribute(
      'href',
      '/account?tab=billing#text-number',
    );
    expect(within(card).getByRole('link', { name: 'waitlist' })).toHaveAttribute('href', '/waitlist');
    expect(within(card).getByRole('link', { name: 'Openings' })).toHaveAttribute('href', '/openings');
    expect(screen.queryByRole('img', { name: /Revenue recovered per week/ })).not.toBeInTheDocument();
  });

  it('shows the figures through Intl and a weekly chart', async () => {
    mockSignedIn(makeUser(), { 'GET /dashboard/earnings': answer(withData) });
    renderApp('/dashboard', { token: 'tok' });
    const revenue = await screen.findByText('Revenue recovered', { selector: 'dt' });
    expect(revenue.parentElement).toHaveTextContent('$1,234.50');
    expect(screen.getByText('Openings filled', { selector: 'dt' }).parentElement).toHaveTextContent('3 / 5');
    // Issue 27: the fill rate counts decided openings only, and says so; waiting now counts the waiting.
    expect(screen.getByText('Fill rate', { selector: 'dt' }).parentElement).toHaveTextContent(
      /75%\s*of 4 decided; open ones not counted/,
    );
    expect(screen.getByText('Waiting now', { selector: 'dt' }).parentElement).toHaveTextContent(
      /40\s*not texted, booked or opted out/,
    );
    expect(screen.getByText('Median time to claim', { selector: 'dt' }).parentElement).toHaveTextContent(
      '12 min',
    );
    expect(screen.getByText('Texts sent', { selector: 'dt' }).parentElement).toHaveTextContent(
      /1,234\s*1,200 delivered/,
    );
    expect(screen.getByText('Nov 1 – Nov 23 (America/New York)')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: /Revenue recovered per week/ })).toBeInTheDocument();
    const rows = within(screen.getByRole('table', { name: 'Week by week' })).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'Week ofRevenue recoveredFill rate',
      'Oct 26$0.00—',
      'Nov 2$65.0050%',
      'Nov 16$1,169.50100%',
    ]);
  });

  it('shows zeros, not the new-owner state, for a quiet range of an owner who has sent alerts', async () => {
    mockSignedIn(makeUser(), { 'GET /dashboard/earnings': answer(quietRange) });
    renderApp('/dashboard', { token: 'tok' });
    const revenue = await screen.findByText('Revenue recovered', { selector: 'dt' });
    expect(revenue.parentElement).toHaveTextContent('$0.00');
    expect(screen.getByText('Fill rate', { selector: 'dt' }).parentElement).toHaveTextContent('—');
    expect(screen.queryByRole('heading', { name: 'Your earnings will show here' })).not.toBeInTheDocument();
  });

  it('asks for the chosen range, custom dates included', async () => {
    const api = mockSignedIn(makeUser(), { 'GET /dashboard/earnings': answer(withData) });
    const app = renderApp('/dashboard', { token: 'tok' });
    await screen.findByText('Revenue recovered', { selector: 'dt' });
    expect(requestedUrls(api.fetchMock).at(-1)).toContain('range=month');
    await app.user.selectOptions(screen.getByLabelText('Range'), 'Last 90 days');
    await screen.findByText('Revenue recovered', { selector: 'dt' });
    expect(requestedUrls(api.fetchMock).at(-1)).toContain('range=90d');
    await app.user.selectOptions(screen.getByLabelText('Range'), 'Custom dates');
    await app.user.type(screen.getByLabelText('From'), '2026-10-01');
    await app.user.type(screen.getByLabelText('To'), '2026-10-31');
    await app.user.click(screen.getByRole('button', { name: 'Show' }));
    await screen.findByText('Revenue recovered', { selector: 'dt' });
    expect(requestedUrls(api.fetchMock).at(-1)).toContain('range=custom&from=2026-10-01&to=2026-10-31');
  });
});
