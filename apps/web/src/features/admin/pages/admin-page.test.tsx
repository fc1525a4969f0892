import { screen, waitFor, within } from '@testing-library/react';
import { adminMessages, authMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { errorAnswer, makeUser } from '../../../test/fixtures.ts';
import { type MockAnswer, mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import {
  makeUsers,
  openAdmin,
  rowOf,
  shownNames,
  table,
  usersServer,
  waitForUsers,
} from './admin-page.test-helpers.tsx';

describe('the user table', () => {
  it('shows every column: id, name, email, business, +1 phone, plan label, badges, verified, number, date', async () => {
    const users = [
      makeUser({
        id: 'c0000000-0000-4000-8000-000000000001',
        firstName: 'Bella',
        lastName: 'Rossi',
        email: 'bella@example.com',
        businessName: 'Bella Salon',
        businessPhone: '5551234567',
        subscriptionPlan: 'starter',
        subscriptionStatus: 'active',
        verified: true,
        plivoNumber: '+15557654321',
        plivoNumberStatus: 'verified',
        createdAt: '2030-03-15T12:00:00.000Z',
      }),
      makeUser({
        id: 'c0000000-0000-4000-8000-000000000002',
        firstName: 'Carl',
        lastName: 'Nguyen',
        email: 'carl@example.com',
        businessName: '',
        businessPhone: '',
        businessVerification: { status: null, businessPhone: '' },
        subscriptionPlan: 'free_trial',
        subscriptionStatus: 'trialing',
        verified: false,
        plivoNumber: null,
        plivoNumberStatus: null,
        createdAt: '2030-03-10T12:00:00.000Z',
      }),
      makeUser({
        id: 'c0000000-0000-4000-8000-000000000003',
        firstName: 'Dana',
        lastName: 'Growth',
        subscriptionPlan: 'growth',
        subscriptionStatus: 'active',
        plivoNumber: '+15550001111',
        plivoNumberStatus: 'pending',
        createdAt: '2030-03-01T12:00:00.000Z',
      }),
    ];
    const { app, requests, lastRequest } = await openAdmin('/admin', usersServer(users));
    await waitForUsers();

    expect(requests).toHaveLength(1);
    expect(lastRequest()).toEqual({ sort: 'createdAt', order: 'desc', page: '1', pageSize: '25' });
    expect(app.location()).toBe('/admin');
    expect(screen.getByText('3 users')).toBeInTheDocument();
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent?.replace(/[↑↓↕]/, '')),
    ).toEqual([
      '_id',
      'Name',
      'Email',
      'Business',
      'Phone',
      'Plan',
      'Status',
      'Verified',
      'Dedicated number',
      'Number status',
      'Created',
    ]);

    const cells = (name: string) =>
      within(rowOf(name))
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(cells('Bella Rossi')).toEqual([
      'c0000000-0000-4000-8000-000000000001',
      'bella@example.com',
      'Bella Salon',
      '+1 (555) 123-4567',
      'Starter Plan',
      'Active',
      'Yes',
      '+1 (555) 765-4321',
      'Verified',
      'Mar 15, 2030',
    ]);
    expect(cells('Carl Nguyen')).toEqual([
      'c0000000-0000-4000-8000-000000000002',
      'carl@example.com',
      '—',
      '—',
      'Free Trial',
      'Trialing',
      'No',
      '—',
      '—',
      'Mar 10, 2030',
    ]);
    expect(within(rowOf('Dana Growth')).getByText('Growth Plan')).toBeInTheDocument();

    // Badge variants: the status and the dedicated number's state.
    expect(within(rowOf('Bella Rossi')).getByText('Active')).toHaveClass('badge--success');
    expect(within(rowOf('Bella Rossi')).getByText('Verified')).toHaveClass('badge--success');
    expect(within(rowOf('Carl Nguyen')).getByText('Trialing')).toHaveClass('badge--info');
    expect(within(rowOf('Dana Growth')).getByText('Pending')).toHaveClass('badge--warning');
    expect(within(rowOf('Bella Rossi')).getByText('Mar 15, 2030')).toHaveAttribute(
      'datetime',
      '2030-03-15T12:00:00.000Z',
    );

    // Read-only: nothing in the table changes a user.
    expect(
      within(table())
        .queryAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Name↕', 'Email↕', 'Business↕', 'Plan↕', 'Created↓']);
    expect(within(table()).queryByRole('link')).not.toBeInTheDocument();
  });

  it('shows canceled and past_due subscriptions with the danger badge, and a failed number too', async () => {
    const users = makeUsers(3, (index) => ({
      subscriptionStatus: ['canceled', 'past_due', 'active'][index],
      subscriptionPlan: 'starter',
      plivoNumber: index === 0 ? '+15550002222' : null,
      plivoNumberStatus: index === 0 ? 'failed' : null,
    }));
    await openAdmin('/admin', usersServer(users));
    await waitForUsers();
    expect(within(rowOf('User01 Test')).getByText('Canceled')).toHaveClass('badge', 'badge--danger');
    expect(within(rowOf('User02 Test')).getByText('Past due')).toHaveClass('badge', 'badge--danger');
    expect(within(rowOf('User03 Test')).getByText('Active')).not.toHaveClass('badge--danger');
    expect(within(rowOf('User01 Test')).getByText('Failed')).toHaveClass('badge--danger');
  });

  it('says Loading users while the first page is on its way', async () => {
    await openAdmin('/admin', () => new Promise<MockAnswer>(() => {}));
    expect(await screen.findByText('Loading users…')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});

describe('errors', () => {
  it('says Failed to fetch users when the server gives no message, and Retry asks again', async () => {
    let fail = true;
    const serve = usersServer(makeUsers(2));
    const { app, requests } = await openAdmin('/admin', (query) => (fail ? errorAnswer(500) : serve(query)));
    expect(await screen.findByRole('alert')).toHaveTextContent(authMessages.fetchUsersFailed);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();

    fail = false;
    await app.user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitForUsers();
    expect(shownNames()).toHaveLength(2);
    expect(requests).toHaveLength(2);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("prefers the server's message", async () => {
    await openAdmin('/admin', () => errorAnswer(403, adminMessages.adminOnly));
    expect(await screen.findByRole('alert')).toHaveTextContent(adminMessages.adminOnly);
  });

  it('says the connection failed when nothing answers', async () => {
    await openAdmin('/admin', () => {
      throw new TypeError('Failed to fetch');
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(authMessages.unableToConnect);
  });
});

describe('who sees it', () => {
  it('sends a non-admin to / without asking for the list', async () => {
    const api = mockSignedIn(makeUser({ admin: false }));
    const app = renderApp('/admin', { token: 'tok' });
    await waitFor(() => expect(app.location()).toBe('/account'));
    expect(api.callsTo('GET /admin/users')).toHaveLength(0);
  });
});
