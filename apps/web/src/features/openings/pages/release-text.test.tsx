import { screen, waitFor, within } from '@testing-library/react';
import { offerMessages, RELEASE_NOTE_MAX } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../test/fixtures.ts';
import { mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { makeOffer, makeOpening, openingDetail, openingsAnswer } from '../../../test/waitlist-fixtures.ts';

/** Issue 39: the owner sees the words the released winner gets, in her language, and may add a line. */

const winner = { id: 'c1', name: 'Ava Ruiz', phone: '+12125550101' };
const spanish =
  'Salon Bella: Lo sentimos, Ava, tu cita de mar, 24 de nov a las 2:00 p.m. ya no queda apartada para ti.';

function openFilled() {
  const opening = makeOpening({
    service: 'Haircut',
    status: 'filled',
    winner,
    filledAt: '2030-01-03T18:04:00.000Z',
  });
  const released = { ...opening, status: 'open' as const, winner: null, filledAt: null };
  const api = mockSignedIn(makeUser(), {
    'GET /openings': openingsAnswer({ openings: [opening] }),
    [`GET /openings/${opening.id}`]: {
      body: {
        success: true,
        data: openingDetail(opening, [makeOffer({ name: 'Ava Ruiz', status: 'won' })], spanish),
      },
    },
    [`POST /openings/${opening.id}/release`]: {
      body: {
        success: true,
        data: openingDetail(released, [makeOffer({ name: 'Ava Ruiz', status: 'released' })]),
        message: offerMessages.claimReleased,
      },
    },
  });
  const app = renderApp(`/openings/${opening.id}`, { token: 'tok' });
  return { api, app, id: opening.id };
}

describe('the released winner’s text (issue 39)', () => {
  it('shows the exact words before confirming, with the owner’s line, and sends that line', async () => {
    const { api, app, id } = openFilled();
    await app.user.click(
      await screen.findByRole('button', { name: 'Winner can’t come — offer to the next' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Offer the slot to the next customer?' });
    const text = within(dialog).getByLabelText('The text to the winner');
    expect(text).toHaveTextContent(spanish);
    await app.user.type(within(dialog).getByLabelText(/Add a line/), 'Te llamamos hoy.');
    expect(text.textContent).toBe(`${spanish}\nTe llamamos hoy.`);
    await app.user.click(within(dialog).getByRole('button', { name: 'Text Ava Ruiz and offer to the next' }));
    await waitFor(() => expect(api.callsTo(`POST /openings/${id}/release`)).toHaveLength(1));
    expect(api.callsTo(`POST /openings/${id}/release`)[0]!.body).toEqual({ note: 'Te llamamos hoy.' });
    expect(await screen.findByText(offerMessages.claimReleased)).toBeInTheDocument();
  });

  it('refuses a line too long beside the field, sending nothing', async () => {
    const { api, app, id } = openFilled();
    await app.user.click(
      await screen.findByRole('button', { name: 'Winner can’t come — offer to the next' }),
    );
    const dialog = screen.getByRole('dialog');
    const field = within(dialog).getByLabelText(/Add a line/);
    await app.user.click(field);
    await app.user.paste('x'.repeat(RELEASE_NOTE_MAX + 1));
    await app.user.click(within(dialog).getByRole('button', { name: /offer to the next/ }));
    expect(
      await within(dialog).findByText(offerMessages.releaseNoteTooLong(RELEASE_NOTE_MAX)),
    ).toBeInTheDocument();
    expect(api.callsTo(`POST /openings/${id}/release`)).toHaveLength(0);
  });

  it('names a released winner’s row as released by the owner', async () => {
    const opening = makeOpening({ service: 'Haircut' });
    mockSignedIn(makeUser(), {
      'GET /openings': openingsAnswer({ openings: [opening] }),
      [`GET /openings/${opening.id}`]: {
        body: {
          success: true,
          data: openingDetail(opening, [
            makeOffer({
              name: 'Ava Ruiz',
              status: 'released',
              rank: 2,
              reason: '2nd: released by you, not asked again',
            }),
            makeOffer({ name: 'Isabella', rank: 1, reason: '1st: told it was filled, asked again first' }),
          ]),
        },
      },
    });
    renderApp(`/openings/${opening.id}`, { token: 'tok' });
    const row = await screen.findByRole('listitem', { name: 'Ava Ruiz' });
    expect(row).toHaveTextContent('Released by you');
    expect(screen.getByRole('listitem', { name: 'Isabella' })).toHaveTextContent(
      'told it was filled, asked again first',
    );
  });
});
