import { screen, waitFor, within } from '@testing-library/react';
import { waitlistMessages } from '@waitlist/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../../test/fixtures.ts';
import { mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

// 15:42 UTC: 10:42 am in New York, 5:42 am in Honolulu (January, no daylight saving).
const NOW = new Date('2030-01-03T15:42:00.000Z');

function openBusinessSettings(timeZone = 'America/New_York') {
  const api = mockSignedIn(makeUser(), {
    'GET /settings/time-zone': { body: { success: true, data: { timeZone } } },
    'PUT /settings/time-zone': (call) => ({
      body: {
        success: true,
        data: { timeZone: (call.body as { timeZone: string }).timeZone },
        message: waitlistMessages.timeZoneUpdated,
      },
    }),
    'PUT /auth/updatedetails': (call) => ({
      body: { success: true, data: makeUser(call.body as object), message: 'ok' },
    }),
  });
  const app = renderApp('/settings/business', { token: 'tok' });
  return { api, app };
}

const picker = () => screen.findByRole('combobox', { name: 'Business time zone' });

describe('the business time zone, by city (issue 39)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => vi.useRealTimers());

  it('shows the saved zone as its city, with its region, offset and the time there now', async () => {
    openBusinessSettings();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Business & time zone' }),
    ).toBeInTheDocument();
    const input = await picker();
    expect(input).toHaveValue('New York');
    expect(input).toHaveAccessibleDescription(/Eastern Time · GMT-5 · 10:42 am there now/);
  });

  it('lists US zones first, and finds a city as it is typed, with its local time', async () => {
    const { app } = openBusinessSettings();
    const input = await picker();
    await app.user.click(input);
    const list = screen.getByRole('listbox', { name: 'Business time zone choices' });
    const cities = within(list)
      .getAllByRole('option')
      .slice(0, 7)
      .map((option) => option.querySelector('.tz-picker__city')?.textContent?.replace(' ✓', ''));
    expect(cities).toEqual([
      'New York',
      'Chicago',
      'Denver',
      'Phoenix',
      'Los Angeles',
      'Anchorage',
      'Honolulu',
    ]);

    await app.user.clear(input);
    await app.user.type(input, 'hono');
    const options = within(list).getAllByRole('option');
    expect(options).toHaveLength(1);
    expect(options[0]).toHaveTextContent('Honolulu5:42 amHawaii Time · GMT-10');
    expect(input).toHaveAttribute('aria-activedescendant', options[0]?.id);
  });

  it('matches the names people use ("pacific", "hawaii") and says when nothing does', async () => {
    const { app } = openBusinessSettings();
    const input = await picker();
    await app.user.clear(input);
    await app.user.type(input, 'pacific');
    expect(screen.getAllByRole('option')[0]).toHaveTextContent(/^Los Angeles/);
    await app.user.clear(input);
    await app.user.type(input, 'hawaii');
    expect(screen.getAllByRole('option')[0]).toHaveTextContent(/^Honolulu/);
    await app.user.clear(input);
    await app.user.type(input, 'zzzz');
    expect(screen.queryAllByRole('option')).toHaveLength(0);
    expect(screen.getByText(/No time zone matches “zzzz”/)).toBeInTheDocument();
  });

  it('is chosen with the keyboard and saved', async () => {
    const { api, app } = openBusinessSettings();
    const input = await picker();
    const save = screen.getByRole('button', { name: 'Save time zone' });
    expect(save).toBeDisabled();
    input.focus();
    await app.user.keyboard('{ArrowDown}');
    expect(input).toHaveAttribute('aria-expanded', 'true');
    // The list opens on the saved zone; two down is Denver.
    expect(screen.getByRole('option', { selected: true })).toHaveTextContent(/^New York/);
    await app.user.keyboard('{ArrowDown}{ArrowDown}{ArrowUp}');
    expect(screen.getByRole('option', { selected: true })).toHaveTextContent(/^Chicago/);
    await app.user.keyboard('{Escape}');
    expect(input).toHaveAttribute('aria-expanded', 'false');
    expect(input).toHaveValue('New York');

    await app.user.clear(input);
    await app.user.type(input, 'hono');
    await app.user.keyboard('{Enter}');
    expect(input).toHaveValue('Honolulu');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(api.callsTo('PUT /settings/time-zone')).toHaveLength(0);

    await app.user.click(save);
    await waitFor(() => expect(api.callsTo('PUT /settings/time-zone')).toHaveLength(1));
    expect(api.callsTo('PUT /settings/time-zone')[0]?.body).toEqual({ timeZone: 'Pacific/Honolulu' });
    expect(await screen.findByText(waitlistMessages.timeZoneUpdated)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save time zone' })).toBeDisabled());
  });

  it('is chosen with a tap', async () => {
    const { app } = openBusinessSettings();
    const input = await picker();
    await app.user.click(screen.getByRole('button', { name: 'Show business time zones' }));
    await app.user.click(screen.getByRole('option', { name: /^Los Angeles/ }));
    expect(input).toHaveValue('Los Angeles');
    expect(screen.getByRole('button', { name: 'Save time zone' })).toBeEnabled();
  });
});

describe('the business details', () => {
  it('saves the name and address, keeping the owner’s own details', async () => {
    const { api, app } = openBusinessSettings();
    const name = await screen.findByRole('textbox', { name: 'Business name' });
    expect(name).toHaveValue('Bella Salon');
    expect(screen.getByText('(555) 123-4567')).toBeInTheDocument();
    await app.user.clear(name);
    await app.user.type(name, 'Bella Hair');
    await app.user.click(screen.getByRole('button', { name: 'Save details' }));
    await waitFor(() => expect(api.callsTo('PUT /auth/updatedetails')).toHaveLength(1));
    expect(api.callsTo('PUT /auth/updatedetails')[0]?.body).toEqual({
      firstName: 'Bella',
      lastName: 'Rossi',
      email: 'bella@example.com',
      businessName: 'Bella Hair',
      businessAddress: '12 Main St',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
    });
    expect(await screen.findByText('Business details saved')).toBeInTheDocument();
  });
});
