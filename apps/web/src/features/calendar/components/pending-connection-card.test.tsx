import { screen, waitFor, within } from '@testing-library/react';
import { calendarMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { billingApi } from '../../../test/billing-fixtures.ts';
import { errorAnswer, makeUser } from '../../../test/fixtures.ts';
import { type MockAnswer, mockSignedIn, type RecordedCall } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { servicesAnswers } from '../../../test/waitlist-fixtures.ts';
import { connectionsAnswer, makeConnection } from '../calendar-fixtures.ts';

type Handler = MockAnswer | 'pending' | ((call: RecordedCall) => MockAnswer | Promise<MockAnswer>);

const PENDING_ID = '6f1c2a4e-0000-4000-8000-000000000001';
const pendingAnswer = {
  body: {
    success: true,
    data: {
      id: PENDING_ID,
      kind: 'google',
      account: 'bella@salon.example',
      name: 'Salon',
      expiresAt: new Date(Date.now() + 600_000).toISOString(),
    },
  },
};

/** Google sends the owner back to the Calendar tab with an account waiting for their yes (issue 38). */
async function backFromConsent(handlers: Record<string, Handler> = {}) {
  const api = mockSignedIn(makeUser(), {
    ...billingApi().handlers,
    ...servicesAnswers(),
    'GET /calendar/connections': connectionsAnswer([], ['google', 'caldav']),
    [`GET /calendar/oauth/pending/${PENDING_ID}`]: pendingAnswer,
    ...handlers,
  });
  const app = renderApp(`/account?tab=calendar&pending=${PENDING_ID}`, { token: 'tok' });
  await screen.findByRole('heading', { level: 1, name: 'Calendar' });
  return { app, api };
}

const confirmStep = () => screen.getByRole('region', { name: 'Confirm the calendar' });

describe('the Calendar tab: confirming the account Google signed in (issue 38)', () => {
  it('shows the account and calendar, and connects only when the owner presses Connect', async () => {
    let list: ReturnType<typeof makeConnection>[] = [];
    const { app, api } = await backFromConsent({
      'GET /calendar/connections': () => connectionsAnswer(list, ['google', 'caldav']),
      [`POST /calendar/oauth/pending/${PENDING_ID}/confirm`]: () => {
        list = [makeConnection({ id: PENDING_ID, kind: 'google', name: 'Salon', url: null })];
        return { body: { success: true, data: list[0], message: calendarMessages.connected } };
      },
    });
    expect(
      await screen.findByText(calendarMessages.oauthConfirm('bella@salon.example', 'Salon')),
    ).toBeInTheDocument();
    expect(api.callsTo(`POST /calendar/oauth/pending/${PENDING_ID}/confirm`)).toHaveLength(0);

    await app.user.click(within(confirmStep()).getByRole('button', { name: 'Connect' }));
    await waitFor(() =>
      expect(api.callsTo(`POST /calendar/oauth/pending/${PENDING_ID}/confirm`)).toHaveLength(1),
    );
    expect(await screen.findByText(calendarMessages.connected)).toBeInTheDocument();
    expect(await screen.findByRole('listitem', { name: 'Salon' })).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Confirm the calendar' })).not.toBeInTheDocument(),
    );
    expect(app.location()).toBe('/settings/calendar');
  });

  it('Cancel forgets it: nothing is connected', async () => {
    const { app, api } = await backFromConsent({
      [`DELETE /calendar/oauth/pending/${PENDING_ID}`]: {
        body: { success: true, message: calendarMessages.oauthCancelled },
      },
    });
    await screen.findByText(calendarMessages.oauthConfirm('bella@salon.example', 'Salon'));
    await app.user.click(within(confirmStep()).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText(calendarMessages.oauthCancelled)).toBeInTheDocument();
    expect(api.callsTo(`DELETE /calendar/oauth/pending/${PENDING_ID}`)).toHaveLength(1);
    expect(api.callsTo(`POST /calendar/oauth/pending/${PENDING_ID}/confirm`)).toHaveLength(0);
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Confirm the calendar' })).not.toBeInTheDocument(),
    );
  });

  it('loading, then the server’s words when it no longer waits; a failed Connect says why and stays', async () => {
    const gone = await backFromConsent({
      [`GET /calendar/oauth/pending/${PENDING_ID}`]: errorAnswer(404, calendarMessages.oauthPendingNotFound),
    });
    expect(await within(confirmStep()).findByText(calendarMessages.oauthPendingNotFound)).toBeInTheDocument();
    await gone.app.user.click(within(confirmStep()).getByRole('button', { name: 'Back to calendars' }));
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Confirm the calendar' })).not.toBeInTheDocument(),
    );
    gone.app.unmount();

    const loading = await backFromConsent({ [`GET /calendar/oauth/pending/${PENDING_ID}`]: 'pending' });
    expect(within(confirmStep()).getByText('Loading the calendar to connect…')).toBeInTheDocument();
    loading.app.unmount();

    const refused = await backFromConsent({
      [`POST /calendar/oauth/pending/${PENDING_ID}/confirm`]: errorAnswer(400, calendarMessages.tooMany),
    });
    await screen.findByText(calendarMessages.oauthConfirm('bella@salon.example', 'Salon'));
    await refused.app.user.click(within(confirmStep()).getByRole('button', { name: 'Connect' }));
    expect(await within(confirmStep()).findByRole('alert')).toHaveTextContent(calendarMessages.tooMany);
    expect(within(confirmStep()).getByRole('button', { name: 'Connect' })).toBeEnabled();
  });
});
