import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../test/fixtures.ts';
import { mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { makeOffer, makeOpening, openingDetail, openingsAnswer } from '../../../test/waitlist-fixtures.ts';

/** 20:30 UTC on Jan 3 2030: 3:30 pm in New York. */
const opening = makeOpening({
  service: 'Color',
  startsAt: '2030-01-03T20:30:00.000Z',
  status: 'open',
  mode: 'waves',
  currentWave: 1,
  nextWaveAt: '2030-01-03T21:15:00.000Z',
});

describe('openings read on the 12-hour clock of a US business (issue 27)', () => {
  it('the list and the open-slot form show "3:30 pm", not "15:30" or "PM"', async () => {
    mockSignedIn(makeUser(), {
      'GET /openings': openingsAnswer({
        openings: [opening],
        alertsToday: { used: 1, limit: 2, resetsAt: '2030-01-04T22:00:00.000Z' },
      }),
    });
    renderApp('/openings', { token: 'tok' });
    const card = await screen.findByRole('listitem', { name: /^Color/ });
    expect(card).toHaveTextContent('Thu, Jan 3, 3:30 pm · ');
    expect(card).toHaveTextContent('next wave at 4:15 pm EST');
    expect(card.textContent).not.toMatch(/15:30|PM|AM/);
    expect(screen.getByTestId('alerts-today')).toHaveTextContent('resets Friday at 5:00 pm EST');
  });

  it('the opening page shows the slot and when each customer was texted in am/pm', async () => {
    const detail = openingDetail(opening, [
      makeOffer({ name: 'Priya', rank: 1, sentAt: '2030-01-03T14:05:00.000Z' }),
    ]);
    mockSignedIn(makeUser(), {
      'GET /openings': openingsAnswer({ openings: [detail] }),
      [`GET /openings/${detail.id}`]: { body: { success: true, data: detail } },
    });
    renderApp(`/openings/${detail.id}`, { token: 'tok' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Color' })).toBeInTheDocument();
    expect(screen.getByText(/Thu, Jan 3, 3:30 pm · /)).toBeInTheDocument();
    expect(
      within(screen.getByRole('listitem', { name: 'Priya' })).getByText(/texted 9:05 am EST/),
    ).toBeInTheDocument();
  });
});
