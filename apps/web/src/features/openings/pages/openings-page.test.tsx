import { screen, waitFor, within } from '@testing-library/react';
import { type Opening, waitlistMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { errorAnswer, makeUser } from '../../../test/fixtures.ts';
import { type MockAnswer, mockSignedIn, type RecordedCall } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import {
  makeOffer,
  makeOpening,
  openingDetail,
  openingsAnswer,
  previewAnswer,
} from '../../../test/waitlist-fixtures.ts';

type Handler = MockAnswer | ((call: RecordedCall) => MockAnswer | Promise<MockAnswer>);

async function openOpenings(
  options: Parameters<typeof openingsAnswer>[0] = {},
  handlers: Record<string, Handler> = {},
) {
  const api = mockSignedIn(makeUser(), { 'GET /openings': openingsAnswer(options), ...handlers });
  const app = renderApp('/openings', { token: 'tok' });
  await screen.findByRole('heading', { level: 1, name: 'Openings' });
  await screen.findByRole('form', { name: 'Open a slot' });
  return { app, api };
}

const form = () => screen.getByRole('form', { name: 'Open a slot' });

describe('open a slot', () => {
  it('shows alerts used today and when the count resets, in the business time zone', async () => {
    await openOpenings({ alertsToday: { used: 1, limit: 2, resetsAt: '2030-01-04T05:00:00.000Z' } });
    expect(screen.getByTestId('alerts-today')).toHaveTextContent(
      /Alerts used today: 1 of 2 · resets Friday at 12:00 am EST/,
    );
    expect(
      within(form()).getByText(/In your business time zone \(New York, Eastern Time\)\./),
    ).toBeInTheDocument();
  });

  it('checks the form before sending', async () => {
    const { app, api } = await openOpenings();
    await app.user.click(within(form()).getByRole('button', { name: 'See who gets the text' }));
    expect(await within(form()).findByText('Choose the time')).toBeInTheDocument();
    expect(within(form()).getByText('Service is required')).toBeInTheDocument();
    await app.user.type(within(form()).getByLabelText(/Price/), '12.345');
    await app.user.click(within(form()).getByRole('radio', { name: /Waves of/ }));
    await app.user.clear(within(form()).getByLabelText('Customers per wave'));
    await app.user.click(within(form()).getByRole('button', { name: 'See who gets the text' }));
    expect(await within(form()).findByText('A price like 45 or 45.50')).toBeInTheDocument();
    expect(within(form()).getByText('Between 1 and 100 customers')).toBeInTheDocument();
    expect(api.callsTo('POST /openings')).toHaveLength(0);
  });

  it('sends the local time, service, duration, price and waves, then shows the opening', async () => {
    const created = makeOpening({ service: 'Color', mode: 'waves', waveSize: 2, claimWindowMinutes: 15 });
    const { app, api } = await openOpenings(
      {},
      {
        'POST /openings/preview': previewAnswer(),
        'POST /openings': {
          status: 201,
          body: { success: true, data: openingDetail(created), message: waitlistMessages.openingCreated },
        },
        [`GET /openings/${created.id}`]: { body: { success: true, data: openingDetail(created) } },
      },
    );
    const slot = form();
    await app.user.clear(within(slot).getByLabelText('Date'));
    await app.user.type(within(slot).getByLabelText('Date'), '2030-01-03');
    await app.user.type(within(slot).getByLabelText('Time'), '15:30');
    await app.user.type(within(slot).getByLabelText('Service'), 'Color');
    await app.user.selectOptions(within(slot).getByLabelText('Duration'), '90');
    await app.user.type(within(slot).getByLabelText(/Price/), '45.50');
    await app.user.click(within(slot).getByRole('radio', { name: /Waves of/ }));
    await app.user.clear(within(slot).getByLabelText('Customers per wave'));
    await app.user.type(within(slot).getByLabelText('Customers per wave'), '2');
    await app.user.clear(within(slot).getByLabelText('Minutes between waves'));
    await app.user.type(within(slot).getByLabelText('Minutes between waves'), '15');
    await app.user.click(within(slot).getByRole('button', { name: 'See who gets the text' }));

    await app.user.click(await screen.findByRole('button', { name: 'Send cancellation alert' }));
    await waitFor(() => expect(api.callsTo('POST /openings')).toHaveLength(1));
    expect(api.callsTo('POST /openings/preview')[0]?.body).toEqual(api.callsTo('POST /openings')[0]?.body);
    expect(api.callsTo('POST /openings')[0]?.body).toEqual({
      startsAt: '2030-01-03T15:30',
      durationMinutes: 90,
      service: 'Color',
      priceCents: 4550,
      mode: 'waves',
      waveSize: 2,
      claimWindowMinutes: 15,
    });
    expect(await screen.findByText(waitlistMessages.openingCreated)).toBeInTheDocument();
    expect(app.location()).toBe(`/openings/${created.id}`);
  });

  it('shows the refusal when today’s alerts are used up', async () => {
    const refusal = waitlistMessages.alertsLimit('free_trial', 1, '12:00 AM EST');
    const { app } = await openOpenings({}, { 'POST /openings/preview': errorAnswer(403, refusal) });
    const slot = form();
    await app.user.type(within(slot).getByLabelText('Time'), '15:30');
    await app.user.type(within(slot).getByLabelText('Service'), 'Haircut');
    await app.user.click(within(slot).getByRole('button', { name: 'See who gets the text' }));
    expect(await within(slot).findByRole('alert')).toHaveTextContent(
      'Your Free Trial allows 1 cancellation alert per day. The count resets at 12:00 AM EST.',
    );
  });

  it('says so before the owner tries when the day’s alerts are used up', async () => {
    await openOpenings({ alertsToday: { used: 1, limit: 1 } });
    expect(within(form()).getByText('No alerts left today')).toBeInTheDocument();
    expect(within(form()).getByRole('button', { name: 'See who gets the text' })).toBeDisabled();
  });

  it('is read-only with the reason when billing is not in good standing', async () => {
    await openOpenings({ readOnly: true, readOnlyReason: 'Your subscription payment is past due.' });
    expect(screen.getByText(/Your subscription payment is past due\./)).toBeInTheDocument();
    expect(within(form()).getByRole('button', { name: 'See who gets the text' })).toBeDisabled();
  });
});

describe('business time zone', () => {
  it('is named as a place, and changed in Settings (issue 39)', async () => {
    const { app } = await openOpenings(
      {},
      { 'GET /settings/time-zone': { body: { success: true, data: { timeZone: 'America/New_York' } } } },
    );
    await app.user.click(
      within(form()).getByRole('link', { name: 'Change the business time zone in Settings' }),
    );
    expect(app.location()).toBe('/settings/business');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Business & time zone' }),
    ).toBeInTheDocument();
    expect(await screen.findByRole('combobox', { name: 'Business time zone' })).toHaveValue('New York');
  });
});

describe('the openings list', () => {
  it('shows each alert’s live numbers, the winner and the way to close an open one', async () => {
    const open = makeOpening({
      service: 'Haircut',
      stats: { sent: 5, delivered: 4, replies: 1, offered: 5 },
    });
    const filled = makeOpening({
      service: 'Color',
      status: 'filled',
      winner: { id: 'c1', name: 'Ana Ruiz', phone: '+12125550101' },
      filledAt: '2030-01-03T18:04:00.000Z',
    });
    const { app, api } = await openOpenings(
      { openings: [open, filled] },
      {
        [`POST /openings/${open.id}/close`]: {
          body: { success: true, message: waitlistMessages.openingClosed },
        },
      },
    );
    const haircut = screen.getByRole('listitem', { name: /^Haircut/ });
    const stats = within(haircut).getByText('Delivered').parentElement as HTMLElement;
    expect(stats).toHaveTextContent('Delivered4');
    expect(within(haircut).getByText('Replies').parentElement).toHaveTextContent('Replies1');
    expect(within(haircut).getByText('Open')).toBeInTheDocument();
    expect(within(haircut).getByText('Waiting for a YES')).toBeInTheDocument();

    const color = screen.getByRole('listitem', { name: /^Color/ });
    expect(within(color).getByText('Filled')).toBeInTheDocument();
    expect(within(color).getByTestId('opening-winner')).toHaveTextContent(
      'Claimed by Ana Ruiz · (212) 555-0101 at 1:04 pm EST',
    );
    expect(within(color).getByTestId('opening-winner').textContent).not.toContain('((');
    expect(within(color).queryByRole('button', { name: /Close/ })).not.toBeInTheDocument();

    await app.user.click(within(haircut).getByRole('button', { name: 'Close the Haircut opening' }));
    await app.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close opening' }));
    await waitFor(() => expect(api.callsTo(`POST /openings/${open.id}/close`)).toHaveLength(1));
    expect(await screen.findByText(waitlistMessages.openingClosed)).toBeInTheDocument();
  });

  it('polls while an alert is open and shows the winner as soon as there is one', async () => {
    let opening: Opening = makeOpening({ service: 'Haircut' });
    const { api } = await openOpenings(
      {},
      { 'GET /openings': () => openingsAnswer({ openings: [opening] }) },
    );
    expect(screen.getByText('Waiting for a YES')).toBeInTheDocument();
    opening = {
      ...opening,
      status: 'filled',
      winner: { id: 'c1', name: 'Ana Ruiz', phone: '+12125550101' },
      stats: { ...opening.stats, replies: 1 },
    };
    expect(await screen.findByTestId('opening-winner', {}, { timeout: 5000 })).toHaveTextContent(
      'Claimed by Ana Ruiz',
    );
    const polls = api.callsTo('GET /openings').length;
    await new Promise((resolve) => setTimeout(resolve, 3500));
    // Filled: nothing left to watch, so no more polling.
    expect(api.callsTo('GET /openings').length).toBe(polls);
  }, 15_000);

  it('says when there are no openings yet', async () => {
    await openOpenings({ openings: [] });
    expect(screen.getByText(/No openings yet/)).toBeInTheDocument();
  });
});

describe('opening detail', () => {
  it('lists every offer with its wave and outcome', async () => {
    const opening = makeOpening({
      service: 'Haircut',
      status: 'filled',
      mode: 'waves',
      waveSize: 1,
      claimWindowMinutes: 10,
      winner: { id: 'c2', name: 'Ben', phone: '+12125550102' },
    });
    mockSignedIn(makeUser(), {
      'GET /openings': openingsAnswer({ openings: [opening] }),
      [`GET /openings/${opening.id}`]: {
        body: {
          success: true,
          data: openingDetail(opening, [
            makeOffer({ name: 'Ana', wave: 1, status: 'lost', outcome: 'told_filled' }),
            makeOffer({ name: 'Ben', wave: 2, status: 'won' }),
            makeOffer({ name: 'Cleo', wave: 3, status: 'pending', sentAt: null }),
          ]),
        },
      },
    });
    renderApp(`/openings/${opening.id}`, { token: 'tok' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Haircut' })).toBeInTheDocument();
    expect(screen.getByText(/one at a time, 10 min to claim/)).toBeInTheDocument();
    expect(screen.getByTestId('opening-winner')).toHaveTextContent('Claimed by Ben');
    const offers = screen.getAllByRole('listitem');
    expect(offers.map((offer) => offer.textContent)).toEqual([
      expect.stringMatching(/^Ana.*wave 1.*Told it’s filled$/),
      expect.stringMatching(/^Ben.*wave 2.*Claimed$/),
      expect.stringMatching(/^Cleo.*wave 3Next wave$/),
    ]);
  });
});
