import { screen, waitFor, within } from '@testing-library/react';
import { waitlistMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../test/fixtures.ts';
import { type MockAnswer, mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import {
  makeCustomer,
  makeService,
  makeStaff,
  servicesAnswers,
  templatesAnswer,
  waitlistAnswer,
} from '../../../test/waitlist-fixtures.ts';

const color = makeService({ name: 'Color' });
const ana = makeStaff({ name: 'Ana' });

async function openWaitlist(handlers: Record<string, MockAnswer | (() => MockAnswer)>) {
  const api = mockSignedIn(makeUser({ plivoNumberStatus: 'verified' }), {
    'GET /waitlist': waitlistAnswer(),
    'GET /message-templates': templatesAnswer(),
    ...handlers,
  });
  const app = renderApp('/waitlist', { token: 'tok' });
  await screen.findByRole('heading', { level: 1, name: 'Waitlist' });
  await waitFor(() => expect(screen.queryByText('Loading your waitlist…')).not.toBeInTheDocument());
  return { app, api };
}

const dialog = () => screen.getByRole('dialog');

describe('what a customer waits for (issue 26)', () => {
  it('chooses a service, a staff member, VIP, pin and a time zone when the business has services', async () => {
    const { app, api } = await openWaitlist({
      ...servicesAnswers([makeService(), color], [ana]),
      'POST /waitlist': {
        status: 201,
        body: { success: true, data: makeCustomer(), message: waitlistMessages.customerAdded },
      },
    });
    await app.user.click(screen.getByRole('button', { name: 'Add customer' }));
    const form = dialog();
    const service = await within(form).findByLabelText('Service');
    expect(service).toHaveDisplayValue('Any service');
    expect(within(form).getByLabelText('Staff')).toHaveDisplayValue('No preference');
    expect(within(form).getByLabelText(/Time zone/)).toHaveDisplayValue('Same as the business');
    await app.user.type(within(form).getByLabelText('Name'), 'Priya Shah');
    await app.user.type(within(form).getByLabelText('Mobile phone'), '212 555 0141');
    await app.user.selectOptions(within(form).getByLabelText('How did they agree to texts?'), 'verbal');
    await app.user.selectOptions(service, color.id);
    await app.user.selectOptions(within(form).getByLabelText('Staff'), ana.id);
    await app.user.click(within(form).getByRole('checkbox', { name: 'VIP' }));
    await app.user.click(within(form).getByRole('checkbox', { name: 'Offer first (pin)' }));
    await app.user.selectOptions(within(form).getByLabelText(/Time zone/), 'America/Chicago');
    await app.user.click(within(form).getByRole('button', { name: 'Add to waitlist' }));
    await waitFor(() => expect(api.callsTo('POST /waitlist')).toHaveLength(1));
    expect(api.callsTo('POST /waitlist')[0]?.body).toMatchObject({
      name: 'Priya Shah',
      serviceId: color.id,
      staffId: ana.id,
      vip: true,
      pinned: true,
      timeZone: 'America/Chicago',
    });
  });

  it('keeps the short form without services or staff, and clears a choice back to null', async () => {
    const maria = makeCustomer({ serviceId: color.id, vip: true, timeZone: 'America/Denver' });
    const { app, api } = await openWaitlist({
      ...servicesAnswers([color]),
      'GET /waitlist': waitlistAnswer({ customers: [maria] }),
      [`PATCH /waitlist/${maria.id}`]: {
        body: { success: true, data: maria, message: waitlistMessages.customerUpdated },
      },
    });
    await app.user.click(screen.getByRole('button', { name: `Edit ${maria.name}` }));
    const form = dialog();
    expect(await within(form).findByLabelText('Service')).toHaveDisplayValue('Color');
    expect(within(form).queryByLabelText('Staff')).not.toBeInTheDocument();
    expect(within(form).getByRole('checkbox', { name: 'VIP' })).toBeChecked();
    await app.user.selectOptions(within(form).getByLabelText('Service'), '');
    await app.user.selectOptions(within(form).getByLabelText(/Time zone/), '');
    await app.user.click(within(form).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.callsTo(`PATCH /waitlist/${maria.id}`)).toHaveLength(1));
    expect(api.callsTo(`PATCH /waitlist/${maria.id}`)[0]?.body).toMatchObject({
      serviceId: null,
      staffId: null,
      timeZone: null,
      vip: true,
      pinned: false,
    });
  });

  it('shows no service or staff select to a business without them', async () => {
    const { app } = await openWaitlist(servicesAnswers());
    await app.user.click(screen.getByRole('button', { name: 'Add customer' }));
    expect(within(dialog()).queryByLabelText('Service')).not.toBeInTheDocument();
    expect(within(dialog()).queryByLabelText('Staff')).not.toBeInTheDocument();
    expect(within(dialog()).getByRole('checkbox', { name: 'VIP' })).not.toBeChecked();
  });

  it('shows the service, the staff member and the VIP and pinned badges on the row', async () => {
    const priya = makeCustomer({
      name: 'Priya Shah',
      serviceId: color.id,
      staffId: ana.id,
      vip: true,
      pinned: true,
    });
    await openWaitlist({
      ...servicesAnswers([color], [ana]),
      'GET /waitlist': waitlistAnswer({ customers: [priya] }),
    });
    const row = screen.getByRole('listitem', { name: 'Priya Shah' });
    expect(await within(row).findByTestId('waits-for')).toHaveTextContent('Color · with Ana');
    expect(within(row).getByText('VIP')).toBeInTheDocument();
    expect(within(row).getByText('Pinned first')).toBeInTheDocument();
  });
});
