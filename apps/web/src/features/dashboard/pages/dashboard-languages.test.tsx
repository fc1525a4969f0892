import { screen } from '@testing-library/react';
import type { Earnings } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../test/fixtures.ts';
import { mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

/** Issue 28: the dashboard counts the range's alerts per customer language once anyone reads Spanish. */
const earnings = (period: Partial<Earnings['period']>): Earnings => ({
  revenueRecoveredCents: 0,
  alertsSent: 15,
  fillRate: 0,
  avgTimeToFillMinutes: null,
  openingsFilled: 0,
  period: {
    range: 'week',
    from: '2026-11-23',
    to: '2026-11-29',
    timeZone: 'America/New_York',
    revenueRecoveredCents: 0,
    fillRate: null,
    openingsFilled: 0,
    openingsOpened: 2,
    openingsDecided: 0,
    medianMinutesToClaim: null,
    textsSent: 15,
    textsDelivered: 15,
    segmentsSent: 18,
    optOuts: 0,
    waitlistSize: 15,
    alertsByLanguage: { en: 12, es: 3 },
    hasSpanishCustomers: true,
    weeks: [],
    ...period,
  },
});

async function openDashboard(data: Earnings) {
  mockSignedIn(makeUser(), { 'GET /dashboard/earnings': { body: { success: true, data } } });
  renderApp('/dashboard', { token: 'tok' });
  await screen.findByText('Texts sent');
}

describe('alerts per language on the dashboard', () => {
  it('says "Texts offering slots: 12 English · 3 Spanish" when a Spanish customer exists (issue 39: texts, not alerts)', async () => {
    await openDashboard(earnings({}));
    expect(screen.getByTestId('alerts-by-language')).toHaveTextContent(
      'Texts offering slots: 12 English · 3 Spanish',
    );
  });

  it('counts a range with no Spanish alert yet as 0 Spanish', async () => {
    await openDashboard(earnings({ alertsByLanguage: { en: 1200, es: 0 } }));
    expect(screen.getByTestId('alerts-by-language')).toHaveTextContent(
      'Texts offering slots: 1,200 English · 0 Spanish',
    );
  });

  it('shows no language line while every customer reads English', async () => {
    await openDashboard(earnings({ alertsByLanguage: { en: 12, es: 0 }, hasSpanishCustomers: false }));
    expect(screen.queryByTestId('alerts-by-language')).not.toBeInTheDocument();
    expect(screen.queryByText(/Spanish/)).not.toBeInTheDocument();
  });
});
