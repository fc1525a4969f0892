import { screen, waitFor, within } from '@testing-library/react';
import { calendarMessages, calendarSkipMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { billingApi } from '../../../test/billing-fixtures.ts';
import { errorAnswer, makeUser } from '../../../test/fixtures.ts';
import { type MockAnswer, mockSignedIn, type RecordedCall } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { makeService, makeStaff, servicesAnswers } from '../../../test/waitlist-fixtures.ts';
import { connectionsAnswer, makeConnection } from '../calendar-fixtures.ts';

type Handler = MockAnswer | ((call: RecordedCall) => MockAnswer | Promise<MockAnswer>);

async function openCalendarTab(handlers: Record<string, Handler> = {}) {
  const api = mockSignedIn(makeUser(), {
    ...billingApi().handlers,
    ...servicesAnswers(),
    'GET /calendar/connections': connectionsAnswer(),
    ...handlers,
  });
  const app = renderApp('/settings/calendar', { token: 'tok' });
  await screen.findByRole('heading', { level: 1, name: 'Calendar' });
  await screen.findByRole('heading', { name: /^Connect (a|another) calendar$/ });
  return { app, api };
}

describe('the Calendar tab: connecting (issue 29)', () => {
  it('checks the CalDAV fields, shows the server’s field errors, then connects', async () => {
    const salon = makeConnection({ name: 'Salon' });
    let list: ReturnType<typeof makeConnection>[] = [];
    let attempts = 0;
    const { app, api } = await openCalendarTab({
      'GET /calendar/connections': () => connectionsAnswer(list),
      'POST /calendar/connections': () => {
        attempts += 1;
        if (attempts === 1) {
          return errorAnswer(400, 'Validation failed', { password: calendarMessages.signInFailed });
        }
        list = [salon];
        return { status: 201, body: { success: true, data: salon, message: calendarMessages.connected } };
      },
    });
    const form = screen.getByRole('form', { name: 'Connect CalDAV' });
    expect(within(form).getByText(/appleid\.apple\.com/)).toBeInTheDocument();
    await app.user.click(within(form).getByRole('button', { name: 'Connect' }));
    expect(await within(form).findByText(calendarMessages.urlRequired)).toBeInTheDocument();
    expect(within(form).getByText(calendarMessages.usernameRequired)).toBeInTheDocument();
    expect(within(form).getByText(calendarMessages.passwordRequired)).toBeInTheDocument();
    expect(api.callsTo('POST /calendar/connections')).toHaveLength(0);

    await app.user.type(within(form).getByLabelText('Calendar address'), 'https://caldav.icloud.com');
    await app.user.type(within(form).getByLabelText('Username'), 'bella@example.com');
    await app.user.type(within(form).getByLabelText('App-specific password'), 'abcd-efgh');
    await app.user.click(within(form).getByRole('button', { name: 'Connect' }));
    const password = within(form).getByLabelText('App-specific password');
    await waitFor(() =>
      expect(password).toHaveAccessibleDescription(expect.stringContaining(calendarMessages.signInFailed)),
    );

    await app.user.click(within(form).getByRole('button', { name: 'Connect' }));
    expect(await screen.findByText(calendarMessages.connected)).toBeInTheDocument();
    expect(api.callsTo('POST /calendar/connections')[1]?.body).toEqual({
      kind: 'caldav',
      url: 'https://caldav.icloud.com',
      username: 'bella@example.com',
      password: 'abcd-efgh',
    });
    const card = await screen.findByRole('listitem', { name: 'Salon' });
    expect(card).toHaveTextContent('checked 2 min ago');
  });

  it('connects an ICS feed or the local calendar, and says a refused address in words', async () => {
    const { app, api } = await openCalendarTab({
      'POST /calendar/connections': (call) =>
        (call.body as { kind: string }).kind === 'ics'
          ? errorAnswer(400, calendarMessages.urlNotAllowed)
          : { status: 201, body: { success: true, data: makeConnection({ kind: 'local' }) } },
    });
    await app.user.selectOptions(screen.getByLabelText('Kind of calendar'), 'ics');
    const ics = screen.getByRole('form', { name: 'Connect a feed' });
    await app.user.type(within(ics).getByLabelText('Calendar link (ICS)'), 'not a link');
    await app.user.click(within(ics).getByRole('button', { name: 'Connect' }));
    expect(await within(ics).findByText(calendarMessages.invalidUrl)).toBeInTheDocument();
    await app.user.clear(within(ics).getByLabelText('Calendar link (ICS)'));
    await app.user.type(within(ics).getByLabelText('Calendar link (ICS)'), 'https://10.0.0.1/cal.ics');
    await app.user.click(within(ics).getByRole('button', { name: 'Connect' }));
    expect(await within(ics).findByRole('alert')).toHaveTextContent(calendarMessages.urlNotAllowed);

    await app.user.selectOptions(screen.getByLabelText('Kind of calendar'), 'local');
    expect(screen.getByRole('link', { name: '/dev/calendar' })).toHaveAttribute('href', '/dev/calendar');
    await app.user.click(screen.getByRole('button', { name: 'Use the local calendar' }));
    await waitFor(() => expect(api.callsTo('POST /calendar/connections')).toHaveLength(2));
    expect(api.callsTo('POST /calendar/connections')[1]?.body).toEqual({ kind: 'local' });
    expect(await screen.findByText(calendarMessages.connected)).toBeInTheDocument();
  });

  it('offers Google and Microsoft only when the server can connect them', async () => {
    const { app, api } = await openCalendarTab({
      'GET /calendar/connections': connectionsAnswer([], ['google', 'caldav']),
      'POST /calendar/oauth/google/start': {
        body: { success: true, url: 'https://accounts.example/consent?state=abc' },
      },
    });
    // The click asks the server for the consent screen (with the session), then the browser goes there.
    await app.user.click(screen.getByRole('button', { name: /Connect Google Calendar/ }));
    await waitFor(() => expect(api.callsTo('POST /calendar/oauth/google/start')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: /Outlook/ })).not.toBeInTheDocument();
    // One kind with a form: no kind to choose.
    expect(screen.queryByLabelText('Kind of calendar')).not.toBeInTheDocument();
  });
});

describe('the Calendar tab after Google sends the owner back', () => {
  it('says why the calendar was not connected', async () => {
    mockSignedIn(makeUser(), {
      ...billingApi().handlers,
      ...servicesAnswers(),
      'GET /calendar/connections': connectionsAnswer([], ['google', 'caldav']),
    });
    // The server still sends the owner to the old Calendar tab's address: it leads to Settings (issue 39).
    const app = renderApp(
      `/account?tab=calendar&calendarError=${encodeURIComponent(calendarMessages.oauthExpired)}`,
      { token: 'tok' },
    );
    expect(await screen.findByText(calendarMessages.oauthExpired)).toBeInTheDocument();
    expect(app.router.state.location.pathname).toBe('/settings/calendar');
    expect(screen.getByRole('heading', { level: 1, name: 'Calendar' })).toBeInTheDocument();
  });
});

describe('the Calendar tab: a connected calendar (issue 29)', () => {
  it('lists the connected local calendar first, says where to edit it, and does not offer it again', async () => {
    await openCalendarTab({
      'GET /calendar/connections': connectionsAnswer([
        makeConnection({ name: 'Local calendar', kind: 'local', url: null, account: null }),
      ]),
    });
    const list = await screen.findByRole('list', { name: 'Connected calendars' });
    const another = screen.getByRole('heading', { name: 'Connect another calendar' });
    // The connected calendar comes before the form for another one.
    expect(list.compareDocumentPosition(another) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const local = within(list).getByRole('listitem', { name: 'Local calendar' });
    expect(within(local).getByRole('link', { name: '/dev/calendar' })).toHaveAttribute(
      'href',
      '/dev/calendar',
    );
    expect(local).toHaveTextContent('Check now reads it at once');
    const kinds = within(screen.getByLabelText('Kind of calendar')).getAllByRole('option');
    expect(kinds.map((option) => option.getAttribute('value'))).toEqual(['caldav', 'ics']);
  });

  it('says what is wrong, that an ICS feed is booked by hand, and which calendar pushes its changes', async () => {
    await openCalendarTab({
      'GET /calendar/connections': connectionsAnswer([
        makeConnection({ name: 'Broken', status: 'error', lastError: calendarMessages.signInFailed }),
        makeConnection({ name: 'Feed', kind: 'ics', account: null, writesBookings: false }),
        makeConnection({ name: 'Work', kind: 'google', url: null, liveUpdates: true }),
      ]),
    });
    expect(
      within(await screen.findByRole('listitem', { name: 'Work' })).getByText(/Its changes arrive at once/),
    ).toBeInTheDocument();
    const broken = await screen.findByRole('listitem', { name: 'Broken' });
    expect(within(broken).getByRole('alert')).toHaveTextContent(calendarMessages.signInFailed);
    expect(within(broken).queryByText(/book by hand/)).not.toBeInTheDocument();
    const feed = screen.getByRole('listitem', { name: 'Feed' });
    expect(within(feed).getByText('Read-only: book by hand')).toBeInTheDocument();
    expect(within(feed).queryByText(/Its changes arrive at once/)).not.toBeInTheDocument();
  });

  it('names the events a read left out and why, and says a failing calendar is read less often (issue 38)', async () => {
    const skippedMessage = calendarSkipMessages['repeats-too-often']('Tick');
    await openCalendarTab({
      'GET /calendar/connections': connectionsAnswer([
        makeConnection({
          name: 'Feed',
          skipped: [{ title: 'Tick', reason: 'repeats-too-often', message: skippedMessage }],
        }),
        makeConnection({
          name: 'Flaky',
          status: 'error',
          lastError: calendarMessages.unreachable,
          failures: 3,
          nextSyncAt: '2026-12-07T15:45:00.000Z',
        }),
      ]),
    });
    const feed = await screen.findByRole('listitem', { name: 'Feed' });
    expect(within(feed).getByText('Not everything in this calendar is watched')).toBeInTheDocument();
    expect(within(feed).getByText(skippedMessage)).toBeInTheDocument();
    const flaky = screen.getByRole('listitem', { name: 'Flaky' });
    expect(within(flaky).getByRole('alert')).toHaveTextContent(
      /It failed 3 times in a row, so it is read less often/,
    );
    expect(within(flaky).getByText(/^Next try at .+; Check now reads it at once\.$/)).toBeInTheDocument();
    expect(within(flaky).queryByText('Not everything in this calendar is watched')).not.toBeInTheDocument();
  });

  it('saves the mode with its wait, look-ahead, excluded words and a title rule', async () => {
    const cut = makeService({ name: 'Cut' });
    const priya = makeStaff({ name: 'Priya' });
    const salon = makeConnection({ name: 'Salon' });
    const { app, api } = await openCalendarTab({
      ...servicesAnswers([cut], [priya]),
      'GET /calendar/connections': connectionsAnswer([salon]),
      [`PATCH /calendar/connections/${salon.id}`]: (call) => ({
        body: {
          success: true,
          data: { ...salon, ...(call.body as object) },
          message: calendarMessages.settingsSaved,
        },
      }),
    });
    const form = await screen.findByRole('form', { name: 'Settings for Salon' });
    expect(within(form).queryByLabelText(/Wait before opening/)).not.toBeInTheDocument();
    await app.user.selectOptions(within(form).getByLabelText('When an appointment is cancelled'), 'auto');
    const wait = within(form).getByLabelText(/Wait before opening/);
    expect(wait).toHaveValue(5);
    await app.user.clear(wait);
    await app.user.type(wait, '90');
    await app.user.click(within(form).getByRole('button', { name: 'Save settings' }));
    expect(await within(form).findByText(calendarMessages.invalidGrace)).toBeInTheDocument();
    await app.user.clear(wait);
    await app.user.type(wait, '10');
    await app.user.clear(within(form).getByLabelText('Look ahead (days)'));
    await app.user.type(within(form).getByLabelText('Look ahead (days)'), '14');
    await app.user.type(within(form).getByLabelText('Never open events called'), ', Break ,');
    await app.user.click(within(form).getByRole('button', { name: 'Add a rule' }));
    const rule = within(form).getByTestId('calendar-rule');
    await app.user.type(within(rule).getByLabelText('Title contains'), 'Cut');
    await app.user.selectOptions(within(rule).getByLabelText('Service'), cut.id);
    await app.user.selectOptions(within(rule).getByLabelText('Staff'), priya.id);
    await app.user.type(within(rule).getByLabelText(/Price/), '45.5');
    await app.user.click(within(form).getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText(calendarMessages.settingsSaved)).toBeInTheDocument();
    expect(api.callsTo(`PATCH /calendar/connections/${salon.id}`)[0]?.body).toEqual({
      mode: 'auto',
      horizonDays: 14,
      graceMinutes: 10,
      exclude: ['Lunch', 'Blocked', 'Break'],
      rules: [{ contains: 'Cut', serviceId: cut.id, staffId: priya.id, priceCents: 4550 }],
    });
  });

  it('shows a saved title rule with its service and staff chosen', async () => {
    const cut = makeService({ name: 'Cut' });
    const priya = makeStaff({ name: 'Priya' });
    await openCalendarTab({
      ...servicesAnswers([cut], [priya]),
      'GET /calendar/connections': connectionsAnswer([
        makeConnection({
          name: 'Salon',
          rules: [{ contains: 'Cut', serviceId: cut.id, staffId: priya.id, priceCents: 4000 }],
        }),
      ]),
    });
    const rule = await screen.findByTestId('calendar-rule');
    expect(within(rule).getByLabelText('Title contains')).toHaveValue('Cut');
    expect(within(rule).getByLabelText('Service')).toHaveValue(cut.id);
    expect(within(rule).getByLabelText('Staff')).toHaveValue(priya.id);
    expect(within(rule).getByLabelText(/Price/)).toHaveValue('40.00');
  });

  it('checks now, and disconnects only after asking', async () => {
    const salon = makeConnection({ name: 'Salon' });
    let list = [salon];
    const { app, api } = await openCalendarTab({
      'GET /calendar/connections': () => connectionsAnswer(list),
      [`POST /calendar/connections/${salon.id}/sync`]: {
        body: { success: true, data: salon, message: calendarMessages.synced },
      },
      [`DELETE /calendar/connections/${salon.id}`]: () => {
        list = [];
        return { body: { success: true, message: calendarMessages.disconnected } };
      },
    });
    const card = await screen.findByRole('listitem', { name: 'Salon' });
    await app.user.click(within(card).getByRole('button', { name: 'Check now' }));
    expect(await screen.findByText(calendarMessages.synced)).toBeInTheDocument();
    expect(api.callsTo(`POST /calendar/connections/${salon.id}/sync`)).toHaveLength(1);

    await app.user.click(within(card).getByRole('button', { name: 'Disconnect' }));
    const dialog = screen.getByRole('dialog', { name: 'Disconnect Salon?' });
    await app.user.click(within(dialog).getByRole('button', { name: 'Keep' }));
    expect(api.callsTo(`DELETE /calendar/connections/${salon.id}`)).toHaveLength(0);
    await app.user.click(within(card).getByRole('button', { name: 'Disconnect' }));
    await app.user.click(
      within(screen.getByRole('dialog', { name: 'Disconnect Salon?' })).getByRole('button', {
        name: 'Disconnect',
      }),
    );
    expect(await screen.findByText(calendarMessages.disconnected)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Salon' })).not.toBeInTheDocument());
  });
});
