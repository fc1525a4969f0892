import { screen, waitFor, within } from '@testing-library/react';
import { calendarMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../test/fixtures.ts';
import { type MockAnswer, mockSignedIn, type RecordedCall } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { makePlannedOffer, openingsAnswer, previewAnswer } from '../../../test/waitlist-fixtures.ts';
import { makeProposal, todayAt } from '../calendar-fixtures.ts';

type Handler = MockAnswer | ((call: RecordedCall) => MockAnswer | Promise<MockAnswer>);
const inboxAnswer = { body: { success: true, data: [], timeZone: 'UTC' } };

function signedIn(handlers: Record<string, Handler>) {
  return mockSignedIn(makeUser(), {
    'GET /inbox': inboxAnswer,
    'GET /openings': openingsAnswer(),
    ...handlers,
  });
}

/** The test's own zone: todayAt() makes times in it. */
const LOCAL_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const cards = () => screen.findByRole('region', { name: 'Cancellations from your calendar' });

describe('cancellation cards (issue 29)', () => {
  it('asks at the top of the inbox; "Text the waitlist" shows who gets the text, and only the confirmation sends (issue 39)', async () => {
    const cut = makeProposal({ title: 'Cut – Priya', startsAt: todayAt(15, 30) });
    let waiting = [cut];
    const api = signedIn({
      'GET /calendar/proposals': () => ({
        body: { success: true, data: waiting, timeZone: LOCAL_ZONE },
      }),
      [`POST /calendar/proposals/${cut.id}/preview`]: previewAnswer({
        offers: [makePlannedOffer({ name: 'Camila Reyes', sendAt: new Date().toISOString() })],
        slot: { service: 'Women’s cut', staffName: 'Priya', priceCents: 6500 },
      }),
      [`POST /calendar/proposals/${cut.id}/open`]: () => {
        waiting = [];
        return {
          body: {
            success: true,
            data: { ...cut, status: 'opened', openingId: 'op-1' },
            message: calendarMessages.proposalOpened,
          },
        };
      },
    });
    const app = renderApp('/inbox', { token: 'tok' });
    const region = await cards();
    expect(within(region).getByRole('listitem')).toHaveTextContent(
      '3:30 pm Cut – Priya cancelled — text the waitlist?',
    );
    await app.user.click(within(region).getByRole('button', { name: 'Text the waitlist' }));
    // The same preview as a slot typed by hand: what is offered, and who gets the text; nothing sent yet.
    expect(await within(region).findByTestId('preview-slot')).toHaveTextContent(
      'Women’s cut with Priya · $65',
    );
    expect(within(region).getByTestId('preview-headline')).toHaveTextContent('Text 1 customer now: Camila');
    expect(api.callsTo(`POST /calendar/proposals/${cut.id}/preview`)).toHaveLength(1);
    expect(api.callsTo(`POST /calendar/proposals/${cut.id}/open`)).toHaveLength(0);

    // Back returns to the card; confirming from the preview sends.
    await app.user.click(within(region).getByRole('button', { name: 'Back to edit' }));
    await app.user.click(within(region).getByRole('button', { name: 'Text the waitlist' }));
    await app.user.click(await within(region).findByRole('button', { name: 'Send cancellation alert' }));
    expect(await screen.findByText(calendarMessages.proposalOpened)).toBeInTheDocument();
    expect(api.callsTo(`POST /calendar/proposals/${cut.id}/open`)).toHaveLength(1);
    await waitFor(() =>
      expect(
        screen.queryByRole('region', { name: 'Cancellations from your calendar' }),
      ).not.toBeInTheDocument(),
    );
  });

  it('dismisses one on the openings page without texting anyone', async () => {
    const color = makeProposal({ title: 'Color', startsAt: todayAt(11, 0) });
    let waiting = [color];
    const api = signedIn({
      'GET /calendar/proposals': () => ({
        body: { success: true, data: waiting, timeZone: LOCAL_ZONE },
      }),
      [`POST /calendar/proposals/${color.id}/dismiss`]: () => {
        waiting = [];
        return { body: { success: true, data: { ...color, status: 'dismissed' } } };
      },
    });
    const app = renderApp('/openings', { token: 'tok' });
    const region = await cards();
    expect(region).toHaveTextContent('11:00 am Color cancelled');
    await app.user.click(within(region).getByRole('button', { name: 'Dismiss' }));
    expect(await screen.findByText(calendarMessages.proposalDismissed)).toBeInTheDocument();
    expect(api.callsTo(`POST /calendar/proposals/${color.id}/open`)).toHaveLength(0);
    expect(api.callsTo(`POST /calendar/proposals/${color.id}/dismiss`)).toHaveLength(1);
  });

  it('shows when a scheduled one opens by itself, and Stop stops it', async () => {
    const cut = makeProposal({ status: 'scheduled', startsAt: todayAt(16, 0), opensAt: todayAt(15, 5) });
    const api = signedIn({
      'GET /calendar/proposals': { body: { success: true, data: [cut], timeZone: LOCAL_ZONE } },
      [`POST /calendar/proposals/${cut.id}/dismiss`]: {
        body: {
          success: true,
          data: { ...cut, status: 'dismissed' },
          message: calendarMessages.proposalDismissed,
        },
      },
    });
    const app = renderApp('/openings', { token: 'tok' });
    const region = await cards();
    expect(region).toHaveTextContent('Opens by itself at 3:05 pm');
    expect(within(region).queryByRole('button', { name: 'Text the waitlist' })).not.toBeInTheDocument();
    await app.user.click(within(region).getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(api.callsTo(`POST /calendar/proposals/${cut.id}/dismiss`)).toHaveLength(1));
  });

  it('shows nothing when no cancellation waits or they cannot be read', async () => {
    signedIn({ 'GET /calendar/proposals': { status: 500, body: { success: false, message: 'Boom' } } });
    renderApp('/openings', { token: 'tok' });
    await screen.findByRole('form', { name: 'Open a slot' });
    expect(
      screen.queryByRole('region', { name: 'Cancellations from your calendar' }),
    ).not.toBeInTheDocument();
    expect(screen.queryByText('Boom')).not.toBeInTheDocument();
  });
});
