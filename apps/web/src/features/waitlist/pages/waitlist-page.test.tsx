import { screen, waitFor, within } from '@testing-library/react';
import { type Customer, waitlistMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { errorAnswer, makeUser } from '../../../test/fixtures.ts';
import { type MockAnswer, mockSignedIn, type RecordedCall } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import {
  customers,
  makeCustomer,
  templatesAnswer,
  type WaitlistAnswerOptions,
  waitlistAnswer,
} from '../../../test/waitlist-fixtures.ts';

type Handler = MockAnswer | ((call: RecordedCall) => MockAnswer | Promise<MockAnswer>);

async function openWaitlist(options: WaitlistAnswerOptions = {}, handlers: Record<string, Handler> = {}) {
  const api = mockSignedIn(makeUser({ plivoNumberStatus: 'verified' }), {
    'GET /waitlist': waitlistAnswer(options),
    'GET /message-templates': templatesAnswer(),
    ...handlers,
  });
  const app = renderApp('/waitlist', { token: 'tok' });
  await screen.findByRole('heading', { level: 1, name: 'Waitlist' });
  await waitFor(() => expect(screen.queryByText('Loading your waitlist…')).not.toBeInTheDocument());
  return { app, api };
}

/** What a business without services or staff sends: no service, no preference, no flags (issue 26). */
const noEntryFields = { serviceId: null, staffId: null, timeZone: null, vip: false, pinned: false };

const row = (name: string) => screen.getByRole('listitem', { name });
const dialog = () => screen.getByRole('dialog');

describe('the plan cap', () => {
  it('shows "12 of 25" without an upgrade link while there is room', async () => {
    await openWaitlist({ customers: customers(12), cap: 25 });
    const meter = screen.getByTestId('cap-meter');
    expect(meter).toHaveTextContent('12 of 25 customers on the Free Trial');
    expect(within(meter).queryByRole('link')).not.toBeInTheDocument();
    expect(within(meter).getByRole('progressbar')).toHaveAttribute('aria-valuetext', '12 of 25 customers');
    expect(screen.getByRole('button', { name: 'Add customer' })).toBeEnabled();
  });

  it('offers the upgrade near the cap, and blocks adding at the cap', async () => {
    const { app } = await openWaitlist({ customers: customers(25), cap: 25, plan: 'starter' });
    const meter = screen.getByTestId('cap-meter');
    expect(meter).toHaveTextContent('25 of 25 customers on the Starter Plan');
    expect(screen.getByRole('button', { name: 'Add customer' })).toBeDisabled();
    await app.user.click(within(meter).getByRole('link', { name: 'Upgrade to add more' }));
    expect(app.location()).toBe('/account?tab=plan');
  });

  it('shows the upgrade link from 80% of the cap', async () => {
    await openWaitlist({ customers: customers(20), cap: 25 });
    expect(
      within(screen.getByTestId('cap-meter')).getByRole('link', { name: 'Upgrade for more room' }),
    ).toHaveAttribute('href', '/account?tab=plan');
    expect(screen.getByRole('button', { name: 'Add customer' })).toBeEnabled();
  });

  it('says there is no limit on Enterprise', async () => {
    await openWaitlist({ customers: customers(3), cap: null, plan: 'enterprise' });
    expect(screen.getByTestId('cap-meter')).toHaveTextContent(
      '3 customers · no limit on the Enterprise Plan',
    );
  });
});

describe('read-only', () => {
  it('shows why with a link to the Plan tab, and disables every change', async () => {
    const reason = 'Your free trial has ended.';
    const { app } = await openWaitlist({ customers: customers(2), readOnly: true, readOnlyReason: reason });
    const banner = screen.getByText(/Your free trial has ended\./).closest('.alert') as HTMLElement;
    expect(within(banner).getByText('Read-only')).toBeInTheDocument();
    for (const name of ['Add customer', 'Import CSV']) {
      expect(screen.getByRole('button', { name })).toBeDisabled();
    }
    const first = row('Customer 1');
    for (const name of ['Send a text to Customer 1', 'Edit Customer 1', 'Remove Customer 1']) {
      expect(within(first).getByRole('button', { name })).toBeDisabled();
    }
    expect(within(first).queryByRole('button', { name: 'Move Customer 1 down' })).not.toBeInTheDocument();
    await app.user.click(within(banner).getByRole('link', { name: 'Choose a plan' }));
    expect(app.location()).toBe('/account?tab=plan');
  });
});

describe('the list', () => {
  it('shows customers in waitlist order with their status, phone and opt-out', async () => {
    await openWaitlist({
      customers: [
        makeCustomer({ name: 'Ana', phone: '+12125550101', status: 'waiting' }),
        makeCustomer({ name: 'Ben', phone: '+12125550102', status: 'offered', optedOut: true }),
        makeCustomer({
          name: 'Cleo',
          phone: '+442079460958',
          status: 'booked',
          preferences: [{ days: [1, 2, 3, 4, 5], from: '09:00', to: '12:00' }],
        }),
      ],
    });
    const list = screen.getByRole('list', { name: 'Customers in waitlist order' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.getAttribute('aria-label')),
    ).toEqual(['Ana', 'Ben', 'Cleo']);
    expect(within(row('Ana')).getByText('(212) 555-0101')).toBeInTheDocument();
    expect(within(row('Ana')).getByText('Waiting')).toBeInTheDocument();
    expect(within(row('Ben')).getByText('Offered')).toBeInTheDocument();
    expect(within(row('Ben')).getByText('Opted out')).toBeInTheDocument();
    expect(within(row('Ben')).getByRole('button', { name: 'Send a text to Ben' })).toBeDisabled();
    expect(within(row('Cleo')).getByText('+44 20 7946 0958')).toBeInTheDocument();
    expect(within(row('Cleo')).getByText('Weekdays 9:00 am–12:00 pm')).toBeInTheDocument();
    expect(within(row('Ana')).getByRole('link', { name: 'Ana' }).getAttribute('href')).toMatch(
      /^\/waitlist\/[\w-]+$/,
    );
  });

  it('says so when the waitlist is empty', async () => {
    await openWaitlist({ customers: [] });
    expect(screen.getByRole('heading', { name: 'Your waitlist is empty' })).toBeInTheDocument();
  });

  it('shows the error with Try again when the list cannot be loaded', async () => {
    await openWaitlist({}, { 'GET /waitlist': errorAnswer(500) });
    expect(await screen.findByText(/^Failed to load your waitlist/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('searches and filters by status through the API', async () => {
    const { app, api } = await openWaitlist({ customers: customers(2) });
    await app.user.type(screen.getByRole('searchbox', { name: 'Search the waitlist' }), 'ana');
    await waitFor(() =>
      expect(api.fetchMock.mock.calls.map(([url]) => String(url))).toContain('/api/v1/waitlist?search=ana'),
    );
    await app.user.click(screen.getByRole('button', { name: 'Booked' }));
    expect(screen.getByRole('button', { name: 'Booked' })).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() =>
      expect(api.fetchMock.mock.calls.map(([url]) => String(url))).toContain(
        '/api/v1/waitlist?search=ana&status=booked',
      ),
    );
  });
});

describe('reordering', () => {
  it('moves a customer up or down with buttons and sends the new order', async () => {
    const list = customers(3);
    const [first, second, third] = list as [Customer, Customer, Customer];
    let current = list;
    const { app, api } = await openWaitlist(
      {},
      {
        'GET /waitlist': () => waitlistAnswer({ customers: current }),
        'POST /waitlist/reorder': (call) => {
          const ids = (call.body as { ids: string[] }).ids;
          current = ids.map((id) => list.find((customer) => customer.id === id) as Customer);
          return { body: { success: true, data: current, message: waitlistMessages.reordered } };
        },
      },
    );
    expect(within(row('Customer 1')).getByRole('button', { name: 'Move Customer 1 up' })).toBeDisabled();
    expect(within(row('Customer 3')).getByRole('button', { name: 'Move Customer 3 down' })).toBeDisabled();

    await app.user.click(within(row('Customer 3')).getByRole('button', { name: 'Move Customer 3 up' }));
    expect(api.callsTo('POST /waitlist/reorder')[0]?.body).toEqual({ ids: [first.id, third.id, second.id] });
    await waitFor(() =>
      expect(screen.getAllByRole('listitem').map((item) => item.getAttribute('aria-label'))).toEqual([
        'Customer 1',
        'Customer 3',
        'Customer 2',
      ]),
    );
    expect(screen.getByText('Customer 3 moved to place 2 of 3.')).toBeInTheDocument();
    // Focus stays on the button that was pressed, so the keyboard can keep moving the same customer.
    await waitFor(() =>
      expect(within(row('Customer 3')).getByRole('button', { name: 'Move Customer 3 up' })).toHaveFocus(),
    );

    await app.user.keyboard('{Enter}');
    expect(api.callsTo('POST /waitlist/reorder')[1]?.body).toEqual({ ids: [third.id, first.id, second.id] });
  });

  it('puts the row back and says why when the server refuses', async () => {
    const { app } = await openWaitlist(
      { customers: customers(2) },
      { 'POST /waitlist/reorder': errorAnswer(400, waitlistMessages.reorderMismatch) },
    );
    await app.user.click(within(row('Customer 2')).getByRole('button', { name: 'Move Customer 2 up' }));
    expect(await screen.findByText(waitlistMessages.reorderMismatch)).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getAllByRole('listitem').map((item) => item.getAttribute('aria-label'))).toEqual([
        'Customer 1',
        'Customer 2',
      ]),
    );
  });
});

describe('adding a customer', () => {
  it('checks the form before sending: name, phone, consent', async () => {
    const { app, api } = await openWaitlist({ customers: [] });
    await app.user.click(screen.getByRole('button', { name: 'Add customer' }));
    await app.user.click(within(dialog()).getByRole('button', { name: 'Add to waitlist' }));
    expect(await within(dialog()).findByText(waitlistMessages.nameRequired)).toBeInTheDocument();
    expect(within(dialog()).getByText(waitlistMessages.phoneRequired)).toBeInTheDocument();
    expect(within(dialog()).getByText(waitlistMessages.consentRequired)).toBeInTheDocument();

    await app.user.type(within(dialog()).getByLabelText('Mobile phone'), '12345');
    await app.user.click(within(dialog()).getByRole('button', { name: 'Add to waitlist' }));
    expect(await within(dialog()).findByText(waitlistMessages.invalidPhone)).toBeInTheDocument();
    expect(api.callsTo('POST /waitlist')).toHaveLength(0);
  });

  it('shows the phone nicely and sends name, phone, consent and time preferences', async () => {
    const { app, api } = await openWaitlist(
      { customers: [] },
      {
        'POST /waitlist': (call) => ({
          status: 201,
          body: {
            success: true,
            data: makeCustomer(call.body as Partial<Customer>),
            message: waitlistMessages.customerAdded,
          },
        }),
      },
    );
    await app.user.click(screen.getByRole('button', { name: 'Add customer' }));
    const form = dialog();
    await app.user.type(within(form).getByLabelText('Name'), 'Maria Lopez');
    const phone = within(form).getByLabelText('Mobile phone');
    await app.user.type(phone, '212.555.0143');
    await app.user.tab();
    expect(phone).toHaveValue('(212) 555-0143');
    await app.user.selectOptions(within(form).getByLabelText('How did they agree to texts?'), 'written');
    await app.user.type(within(form).getByLabelText(/Notes/), 'Prefers Ana');
    await app.user.click(within(form).getByRole('button', { name: 'Add a time preference' }));
    await app.user.click(within(form).getByRole('checkbox', { name: 'Monday' }));
    await app.user.click(within(form).getByRole('checkbox', { name: 'Saturday' }));
    await app.user.click(within(form).getByRole('button', { name: 'Add to waitlist' }));

    await waitFor(() => expect(api.callsTo('POST /waitlist')).toHaveLength(1));
    expect(api.callsTo('POST /waitlist')[0]?.body).toEqual({
      name: 'Maria Lopez',
      phone: '(212) 555-0143',
      notes: 'Prefers Ana',
      consentMethod: 'written',
      preferences: [{ days: [2, 3, 4, 5, 6], from: '09:00', to: '17:00' }],
      ...noEntryFields,
      language: 'en', // the form's default (issue 28)
    });
    expect(await screen.findByText(waitlistMessages.customerAdded)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('keeps the form open with the server message for a duplicate phone', async () => {
    const message = waitlistMessages.duplicatePhone('(212) 555-0143');
    const { app } = await openWaitlist(
      { customers: [makeCustomer()] },
      { 'POST /waitlist': errorAnswer(409, message, { phone: message }) },
    );
    await app.user.click(screen.getByRole('button', { name: 'Add customer' }));
    const form = dialog();
    await app.user.type(within(form).getByLabelText('Name'), 'Maria again');
    await app.user.type(within(form).getByLabelText('Mobile phone'), '2125550143');
    await app.user.selectOptions(within(form).getByLabelText('How did they agree to texts?'), 'verbal');
    await app.user.click(within(form).getByRole('button', { name: 'Add to waitlist' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(message);
    expect(within(form).getByLabelText('Mobile phone')).toHaveAccessibleDescription(
      expect.stringContaining(message),
    );
    expect(within(form).getByLabelText('Name')).toHaveValue('Maria again');
  });
});

describe('editing and removing', () => {
  it('edits with PATCH, starting from the customer as saved', async () => {
    const maria = makeCustomer({ name: 'Maria', notes: 'VIP', consentMethod: 'web_form' });
    const { app, api } = await openWaitlist(
      { customers: [maria] },
      {
        [`PATCH /waitlist/${maria.id}`]: {
          body: { success: true, data: maria, message: 'Customer updated' },
        },
      },
    );
    await app.user.click(screen.getByRole('button', { name: 'Edit Maria' }));
    const form = dialog();
    expect(within(form).getByLabelText('Mobile phone')).toHaveValue('(212) 555-0143');
    expect(within(form).getByLabelText('How did they agree to texts?')).toHaveValue('web_form');
    await app.user.clear(within(form).getByLabelText('Name'));
    await app.user.type(within(form).getByLabelText('Name'), 'Maria L.');
    await app.user.click(within(form).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.callsTo(`PATCH /waitlist/${maria.id}`)).toHaveLength(1));
    expect(api.callsTo(`PATCH /waitlist/${maria.id}`)[0]?.body).toMatchObject({
      name: 'Maria L.',
      notes: 'VIP',
    });
  });

  it('asks before removing', async () => {
    const maria = makeCustomer({ name: 'Maria' });
    const { app, api } = await openWaitlist(
      { customers: [maria] },
      {
        [`DELETE /waitlist/${maria.id}`]: { body: { success: true, data: { ...maria, status: 'removed' } } },
      },
    );
    await app.user.click(screen.getByRole('button', { name: 'Remove Maria' }));
    expect(within(dialog()).getByRole('heading', { name: 'Remove Maria?' })).toBeInTheDocument();
    await app.user.click(within(dialog()).getByRole('button', { name: 'Keep' }));
    expect(api.callsTo(`DELETE /waitlist/${maria.id}`)).toHaveLength(0);

    await app.user.click(screen.getByRole('button', { name: 'Remove Maria' }));
    await app.user.click(within(dialog()).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(api.callsTo(`DELETE /waitlist/${maria.id}`)).toHaveLength(1));
    expect(await screen.findByText(waitlistMessages.removedToast('Maria'))).toBeInTheDocument();
  });
});

describe('CSV import', () => {
  const csv = 'name,phone\nAna,2125550101\nBen,12\n,2125550103';

  it('previews every row with its error, then imports the valid ones', async () => {
    const { app, api } = await openWaitlist(
      { customers: [] },
      {
        'POST /waitlist/import/preview': {
          body: {
            success: true,
            data: {
              rows: [
                { line: 2, name: 'Ana', phone: '+12125550101', error: null },
                { line: 3, name: 'Ben', phone: '12', error: waitlistMessages.invalidPhone },
                { line: 4, name: '', phone: '+12125550103', error: waitlistMessages.nameRequired },
              ],
              valid: 1,
              invalid: 2,
            },
          },
        },
        'POST /waitlist/import': {
          body: { success: true, data: { imported: 1, rows: [] }, message: waitlistMessages.imported(1) },
        },
      },
    );
    await app.user.click(screen.getByRole('button', { name: 'Import CSV' }));
    await app.user.click(within(dialog()).getByLabelText('Or paste the CSV'));
    await app.user.paste(csv);
    await app.user.click(within(dialog()).getByRole('button', { name: 'Preview' }));

    const table = await within(dialog()).findByRole('table', { name: 'Import preview' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((tableRow) => tableRow.textContent)).toEqual([
      '2Ana(212) 555-0101Any serviceReady',
      `3Ben12—${waitlistMessages.invalidPhone}`,
      `4—+12125550103—${waitlistMessages.nameRequired}`,
    ]);
    expect(within(dialog()).getByText('1 ready to import, 2 with errors (skipped).')).toBeInTheDocument();
    expect(api.callsTo('POST /waitlist/import/preview')[0]?.body).toEqual({ csv });

    await app.user.click(within(dialog()).getByRole('button', { name: 'Import 1 customer' }));
    await waitFor(() => expect(api.callsTo('POST /waitlist/import')).toHaveLength(1));
    expect(await screen.findByText(waitlistMessages.imported(1))).toBeInTheDocument();
  });

  it('shows the server refusal of a file', async () => {
    const { app } = await openWaitlist(
      { customers: [] },
      { 'POST /waitlist/import/preview': errorAnswer(400, waitlistMessages.csvEmpty) },
    );
    await app.user.click(screen.getByRole('button', { name: 'Import CSV' }));
    await app.user.click(within(dialog()).getByLabelText('Or paste the CSV'));
    await app.user.paste('name,phone');
    await app.user.click(within(dialog()).getByRole('button', { name: 'Preview' }));
    expect(await within(dialog()).findByRole('alert')).toHaveTextContent(waitlistMessages.csvEmpty);
  });
});

describe('message templates count what is really sent (issue 15)', () => {
  it('counts the alert with the business name, a long service and the opt-out line, and prices one alert', async () => {
    const long =
      'Hi {name}! Great news from {business}: a spot just opened on {time}. Reply YES to claim it, first to reply gets it.';
    const { app } = await openWaitlist(
      { customers: customers(7) },
      { 'GET /message-templates': templatesAnswer({ cancellation_alert: long }) },
    );
    await app.user.click(screen.getByRole('button', { name: 'Message templates' }));
    const alertForm = await within(dialog()).findByRole('form', { name: 'Cancellation alert' });
    // 108 characters as typed, over 160 once filled and with "Reply STOP to opt out": 2 segments.
    expect(within(alertForm).getByTestId('segment-meter')).toHaveTextContent('2 segments');
    expect(within(alertForm).getByTestId('alert-cost')).toHaveTextContent(
      'One alert ≈ 14 billed text segments (2 segments × 7 waiting customers).',
    );
  });
});
