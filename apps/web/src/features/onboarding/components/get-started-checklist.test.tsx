import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../test/fixtures.ts';
import { mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

const waitlistAnswer = (count: number) => ({
  body: {
    success: true,
    data: Array.from({ length: count }, (_, index) => ({ id: `c${index}` })),
    count,
    cap: 25,
    plan: 'free_trial',
    readOnly: false,
    readOnlyReason: null,
  },
});
const openingsAnswer = (count: number) => ({
  body: {
    success: true,
    data: Array.from({ length: count }, (_, index) => ({ id: `o${index}` })),
    alertsToday: { used: 0, limit: 1, resetsAt: new Date().toISOString() },
    timeZone: 'America/New_York',
    readOnly: false,
    readOnlyReason: null,
  },
});

function open(state: { number: 'verified' | 'pending' | null; customers: number; openings: number }) {
  const api = mockSignedIn(makeUser({ plivoNumberStatus: state.number }), {
    'GET /waitlist': waitlistAnswer(state.customers),
    'GET /openings': openingsAnswer(state.openings),
  });
  const app = renderApp('/account', { token: 'tok' });
  return { api, app };
}

describe('the guided start on the account page', () => {
  it('a new owner sees three steps, each linking to the page where it is done', async () => {
    const { app } = open({ number: null, customers: 0, openings: 0 });
    const checklist = await screen.findByTestId('get-started-checklist');
    expect(within(checklist).getByText('0 of 3 done')).toBeInTheDocument();
    const links = within(checklist).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Get your text number', '/account?tab=billing#text-number'],
      ['Add customers', '/waitlist'],
      ['Open your first slot', '/openings'],
    ]);
    await app.user.click(within(checklist).getByRole('link', { name: 'Add customers' }));
    await waitFor(() => expect(app.location()).toBe('/waitlist'));
  });

  it('ticks steps from real state: a pending number is not done, customers and a verified number are', async () => {
    open({ number: 'pending', customers: 0, openings: 0 });
    const checklist = await screen.findByTestId('get-started-checklist');
    expect(within(checklist).getByRole('link', { name: 'Get your text number' })).toBeInTheDocument();
    expect(within(checklist).getByText('0 of 3 done')).toBeInTheDocument();
  });

  it('with a verified number and two customers only the first slot is left', async () => {
    open({ number: 'verified', customers: 2, openings: 0 });
    const checklist = await screen.findByTestId('get-started-checklist');
    expect(within(checklist).getByText('2 of 3 done')).toBeInTheDocument();
    expect(
      within(checklist)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Open your first slot']);
    expect(within(checklist).getByText('2 customers on your waitlist.')).toBeInTheDocument();
    const done = checklist.querySelectorAll('[data-done="true"]');
    expect(done).toHaveLength(2);
  });

  it('goes away once every step is done', async () => {
    const { api } = open({ number: 'verified', customers: 1, openings: 1 });
    await screen.findByRole('heading', { name: 'My Account' });
    await waitFor(() => expect(api.callsTo('GET /openings')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByTestId('get-started-checklist')).not.toBeInTheDocument());
    expect(screen.queryByRole('link', { name: 'Open your first slot' })).not.toBeInTheDocument();
  });
});
