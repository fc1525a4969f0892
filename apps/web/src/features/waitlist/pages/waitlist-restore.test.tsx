import { screen, waitFor, within } from '@testing-library/react';
import { type Customer, waitlistMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../test/fixtures.ts';
import { mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { makeCustomer, templatesAnswer, waitlistAnswer } from '../../../test/waitlist-fixtures.ts';

/** Undoing a removal (issue 27): the toast's Undo, and "Restore" on a removed row. */

/** A waitlist whose GET answers what the server holds now: removing and restoring change it. */
async function openWaitlist(people: Customer[], restoreAnswer?: { status: number; body: unknown }) {
  let current = people;
  const setStatus = (id: string, status: Customer['status']) => {
    current = current.map((customer) => (customer.id === id ? { ...customer, status } : customer));
    return { body: { success: true, data: current.find((customer) => customer.id === id) } };
  };
  // The page shows only those in line unless the "Removed" chip is on, so every customer is answered.
  const handlers: Record<string, () => { status?: number; body: unknown }> = {
    'GET /waitlist': () => waitlistAnswer({ customers: current }),
  };
  for (const customer of people) {
    handlers[`DELETE /waitlist/${customer.id}`] = () => setStatus(customer.id, 'removed');
    handlers[`POST /waitlist/${customer.id}/restore`] = () =>
      restoreAnswer ?? setStatus(customer.id, 'waiting');
  }
  const api = mockSignedIn(makeUser({ plivoNumberStatus: 'verified' }), {
    'GET /message-templates': templatesAnswer(),
    ...handlers,
  });
  const app = renderApp('/waitlist', { token: 'tok' });
  await screen.findByRole('heading', { level: 1, name: 'Waitlist' });
  await waitFor(() => expect(screen.queryByText('Loading your waitlist…')).not.toBeInTheDocument());
  return { app, api };
}

const list = () => screen.getByRole('list', { name: 'Customers in waitlist order' });
const names = () =>
  within(list())
    .getAllByRole('listitem')
    .map((item) => item.getAttribute('aria-label'));

describe('removing a customer can be undone', () => {
  it('shows "Marcus removed" with an Undo that puts Marcus back', async () => {
    const marcus = makeCustomer({ name: 'Marcus' });
    const ana = makeCustomer({ name: 'Ana' });
    const { app, api } = await openWaitlist([ana, marcus]);
    await app.user.click(screen.getByRole('button', { name: 'Remove Marcus' }));
    await app.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove' }));

    const toast = (await screen.findByText(waitlistMessages.removedToast('Marcus'))).closest(
      '[data-testid="toast"]',
    ) as HTMLElement;
    await waitFor(() => expect(names()).toEqual(['Ana']));
    const undo = within(toast).getByRole('button', { name: 'Undo removing Marcus' });
    expect(undo).toHaveTextContent('Undo');
    await app.user.click(undo);

    await waitFor(() => expect(api.callsTo(`POST /waitlist/${marcus.id}/restore`)).toHaveLength(1));
    expect(await screen.findByText('Marcus is back on the waitlist')).toBeInTheDocument();
    await waitFor(() => expect(names()).toEqual(['Ana', 'Marcus']));
    // The Undo runs once: its toast leaves with it.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Undo removing Marcus' })).toBeNull());
  });

  it('offers "Restore" on a removed row, and says why when the server refuses', async () => {
    const eve = makeCustomer({ name: 'Eve', status: 'removed' });
    const refusal = waitlistMessages.restoreOptedOut('Eve');
    const { app, api } = await openWaitlist([eve], {
      status: 409,
      body: { success: false, message: refusal },
    });
    await app.user.click(screen.getByRole('button', { name: 'Removed' }));
    const row = await screen.findByRole('listitem', { name: 'Eve' });
    expect(within(row).queryByRole('button', { name: 'Remove Eve' })).toBeNull();
    await app.user.click(within(row).getByRole('button', { name: 'Restore Eve' }));
    await waitFor(() => expect(api.callsTo(`POST /waitlist/${eve.id}/restore`)).toHaveLength(1));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
  });
});
