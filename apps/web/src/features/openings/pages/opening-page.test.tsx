import { screen, waitFor, within } from '@testing-library/react';
import { offerMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { errorAnswer, makeUser } from '../../../test/fixtures.ts';
import { type MockAnswer, mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { makeOffer, makeOpening, openingDetail, openingsAnswer } from '../../../test/waitlist-fixtures.ts';

const winner = { id: 'c1', name: 'Priya Shah', phone: '+12125550101' };

function openOpening(detail: ReturnType<typeof openingDetail>, handlers: Record<string, MockAnswer> = {}) {
  const api = mockSignedIn(makeUser(), {
    'GET /openings': openingsAnswer({ openings: [detail] }),
    [`GET /openings/${detail.id}`]: { body: { success: true, data: detail } },
    ...handlers,
  });
  const app = renderApp(`/openings/${detail.id}`, { token: 'tok' });
  return { api, app };
}

describe('who was asked and why (issue 26)', () => {
  it('shows each customer’s place, the server’s reason and their outcome, in plan order', async () => {
    const opening = makeOpening({ service: 'Color', mode: 'auto', waveSize: 2, claimWindowMinutes: 10 });
    openOpening(
      openingDetail(opening, [
        makeOffer({ name: 'Jenny', rank: 2, reason: '2nd: claimed 3 of 4 offers, replies in ~4 min' }),
        makeOffer({ name: 'Priya', rank: 1, reason: 'pinned first', status: 'won' }),
        makeOffer({
          name: 'Sam',
          rank: 3,
          reason: '3rd: new, no history yet',
          status: 'held',
          sentAt: null,
          sendAt: '2030-01-04T13:00:00.000Z',
        }),
        makeOffer({ name: 'Lee', rank: 4, status: 'skipped', skipReason: 'quiet_hours', sentAt: null }),
        makeOffer({ name: 'Kim', rank: 5, status: 'skipped', skipReason: 'daily_cap', sentAt: null }),
        makeOffer({ name: 'Bo', rank: 6, status: 'declined' }),
      ]),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Color' })).toBeInTheDocument();
    expect(screen.getByText(/automatic: waves of 2, 10 min to claim/)).toBeInTheDocument();
    const names = screen.getAllByRole('listitem').map((row) => row.getAttribute('aria-label'));
    expect(names).toEqual(['Priya', 'Jenny', 'Sam', 'Lee', 'Kim', 'Bo']);
    const row = (name: string) => screen.getByRole('listitem', { name });
    expect(row('Priya')).toHaveTextContent('1st: pinned first');
    expect(row('Priya')).toHaveTextContent('Claimed');
    expect(row('Jenny')).toHaveTextContent('2nd: claimed 3 of 4 offers, replies in ~4 min');
    expect(row('Jenny')).toHaveTextContent('Texted');
    expect(row('Sam')).toHaveTextContent('Waits for quiet hours to end');
    expect(row('Sam')).toHaveTextContent('goes out at 8:00 am');
    expect(row('Lee')).toHaveTextContent('Not texted: quiet hours');
    expect(row('Kim')).toHaveTextContent('Not texted: offered enough today');
    expect(row('Bo')).toHaveTextContent('Backed out');
  });
});

describe('a customer who asked (issue 27)', () => {
  it('shows “Asked: …” on their row, linked to the conversation', async () => {
    const opening = makeOpening({ service: 'Color' });
    const asked = makeOffer({
      customerId: 'c-asks',
      name: 'Jenny',
      question: { body: 'what time?', at: '2030-01-03T18:03:00.000Z' },
    });
    openOpening(openingDetail(opening, [asked, makeOffer({ name: 'Sam', rank: 2 })]));
    const row = await screen.findByRole('listitem', { name: 'Jenny' });
    const link = within(row).getByRole('link', { name: /Asked: what time\?/ });
    expect(link).toHaveTextContent('Asked: “what time?”');
    expect(link).toHaveAttribute('href', '/inbox/c-asks');
    expect(within(screen.getByRole('listitem', { name: 'Sam' })).queryByText(/Asked/)).toBeNull();
  });
});

describe('the winner backs out', () => {
  const filled = () =>
    makeOpening({ service: 'Haircut', status: 'filled', winner, filledAt: '2030-01-03T18:04:00.000Z' });

  it('releases the claim after a confirmation, and the next customer is offered it', async () => {
    const opening = filled();
    const released = {
      ...opening,
      status: 'open' as const,
      winner: null,
      filledAt: null,
    };
    const { api, app } = openOpening(
      openingDetail(opening, [makeOffer({ name: 'Priya Shah', status: 'won' })]),
      {
        [`POST /openings/${opening.id}/release`]: {
          body: {
            success: true,
            data: openingDetail(released, [makeOffer({ name: 'Priya Shah', status: 'declined' })]),
            message: offerMessages.claimReleased,
          },
        },
      },
    );
    await app.user.click(
      await screen.findByRole('button', { name: 'Winner can’t come — offer to the next' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Offer the slot to the next customer?' });
    expect(dialog).toHaveTextContent('Priya Shah is marked as backed out');
    await app.user.click(within(dialog).getByRole('button', { name: 'Keep Priya Shah' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.callsTo(`POST /openings/${opening.id}/release`)).toHaveLength(0);

    await app.user.click(screen.getByRole('button', { name: 'Winner can’t come — offer to the next' }));
    await app.user.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: 'Offer to the next' }),
    );
    await waitFor(() => expect(api.callsTo(`POST /openings/${opening.id}/release`)).toHaveLength(1));
    expect(await screen.findByText(offerMessages.claimReleased)).toBeInTheDocument();
  });

  it('keeps the dialog open with the server’s refusal', async () => {
    const opening = filled();
    const { app } = openOpening(openingDetail(opening), {
      [`POST /openings/${opening.id}/release`]: errorAnswer(409, offerMessages.nothingToRelease),
    });
    await app.user.click(
      await screen.findByRole('button', { name: 'Winner can’t come — offer to the next' }),
    );
    await app.user.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: 'Offer to the next' }),
    );
    expect(
      await within(screen.getByRole('dialog')).findByText(offerMessages.nothingToRelease),
    ).toBeInTheDocument();
  });

  it('is not offered while the opening is still open', async () => {
    const opening = makeOpening({ service: 'Haircut' });
    openOpening(openingDetail(opening));
    await screen.findByRole('heading', { level: 1, name: 'Haircut' });
    expect(screen.queryByRole('button', { name: /Winner can’t come/ })).not.toBeInTheDocument();
  });
});
