import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../test/fixtures.ts';
import { mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import {
  makeCustomer,
  makeMessage,
  makeOffer,
  makeOpening,
  openingDetail,
  openingsAnswer,
  templatesAnswer,
  waitlistAnswer,
} from '../../../test/waitlist-fixtures.ts';

const row = (name: string) => screen.getByRole('listitem', { name });

describe('what a new owner saw wrong on Waitlist, a customer and an opening', () => {
  it('an opted-out customer shows "Opted out", not "Waiting" and "Opted out" together', async () => {
    mockSignedIn(makeUser({ plivoNumberStatus: 'verified' }), {
      'GET /waitlist': waitlistAnswer({
        customers: [
          makeCustomer({ name: 'Ana', status: 'waiting', optedOut: true }),
          makeCustomer({ name: 'Ben', status: 'waiting' }),
        ],
      }),
    });
    renderApp('/waitlist', { token: 'tok' });
    await screen.findByRole('list', { name: 'Customers in waitlist order' });
    expect(within(row('Ana')).getByText('Opted out')).toBeInTheDocument();
    expect(within(row('Ana')).queryByText('Waiting')).not.toBeInTheDocument();
    expect(within(row('Ben')).getByText('Waiting')).toBeInTheDocument();
  });

  it('a booked customer leaves the line: no place number, below those still waiting, not movable', async () => {
    mockSignedIn(makeUser({ plivoNumberStatus: 'verified' }), {
      'GET /waitlist': waitlistAnswer({
        customers: [
          makeCustomer({ name: 'Ana', status: 'waiting', position: 1 }),
          makeCustomer({ name: 'Ben', status: 'booked', position: 2 }),
          makeCustomer({ name: 'Cleo', status: 'waiting', position: 3 }),
        ],
      }),
    });
    renderApp('/waitlist', { token: 'tok' });
    const list = await screen.findByRole('list', { name: 'Customers in waitlist order' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual(['Ana', 'Cleo', 'Ben']);
    expect(within(row('Ana')).getByText(/Place/).parentElement).toHaveTextContent('Place 1');
    expect(within(row('Cleo')).getByText(/Place/).parentElement).toHaveTextContent('Place 2');
    expect(within(row('Ben')).queryByText(/Place/)).not.toBeInTheDocument();
    expect(within(row('Ben')).getByText('Booked, no longer in line')).toBeInTheDocument();
    expect(within(row('Ben')).queryByRole('button', { name: 'Move Ben up' })).not.toBeInTheDocument();
    expect(within(row('Cleo')).getByRole('button', { name: 'Move Cleo down' })).toBeDisabled();
  });

  it('the customer page shows times in the business time zone, with its name', async () => {
    const maria = makeCustomer({ name: 'Maria' });
    mockSignedIn(makeUser({ plivoNumberStatus: 'verified' }), {
      [`GET /waitlist/${maria.id}/messages`]: {
        body: {
          success: true,
          customer: maria,
          data: [makeMessage({ createdAt: '2030-01-03T18:04:00.000Z' })],
        },
      },
      'GET /settings/time-zone': { body: { success: true, data: { timeZone: 'America/Chicago' } } },
      'GET /message-templates': templatesAnswer(),
    });
    renderApp(`/waitlist/${maria.id}`, { token: 'tok' });
    const thread = await screen.findByRole('list', { name: 'Texts with Maria' });
    await waitFor(() => expect(within(thread).getByText('Jan 3, 12:04 pm CST')).toBeInTheDocument());
  });

  it('a customer who replied STOP shows as opted out on the opening, not "Filled by another"', async () => {
    const opening = makeOpening({
      service: 'Color',
      status: 'filled',
      winner: { id: 'c2', name: 'Ben', phone: '+12125550102' },
    });
    mockSignedIn(makeUser(), {
      'GET /openings': openingsAnswer({ openings: [opening] }),
      [`GET /openings/${opening.id}`]: {
        body: {
          success: true,
          data: openingDetail(opening, [
            makeOffer({ name: 'Ana', status: 'lost', optedOut: true }),
            makeOffer({ name: 'Ben', status: 'won' }),
            makeOffer({ name: 'Cleo', status: 'lost' }),
          ]),
        },
      },
    });
    renderApp(`/openings/${opening.id}`, { token: 'tok' });
    await screen.findByRole('heading', { level: 1, name: 'Color' });
    const offers = screen.getAllByRole('listitem');
    expect(offers.map((offer) => offer.textContent)).toEqual([
      expect.stringMatching(/^Ana.*Opted out$/),
      expect.stringMatching(/^Ben.*Claimed$/),
      expect.stringMatching(/^Cleo.*No answer$/),
    ]);
    expect(screen.getByTestId('opening-winner')).toHaveTextContent('Claimed by Ben · (212) 555-0102');
  });

  it('the CSV import offers a styled "Choose a CSV file" button, and names the file chosen', async () => {
    mockSignedIn(makeUser({ plivoNumberStatus: 'verified' }), {
      'GET /waitlist': waitlistAnswer({ customers: [] }),
    });
    const app = renderApp('/waitlist', { token: 'tok' });
    await screen.findByRole('heading', { name: 'Your waitlist is empty' });
    await app.user.click(screen.getByRole('button', { name: 'Import CSV' }));
    const dialog = screen.getByRole('dialog');
    const input = within(dialog).getByLabelText('Choose a CSV file');
    expect(input).toHaveAttribute('type', 'file');
    expect(input).toHaveClass('file-picker__input');
    // The visible control is our button style, not the browser's.
    const button = within(dialog).getByText('Choose a CSV file');
    expect(button.tagName).toBe('LABEL');
    expect(button).toHaveClass('button', 'button--secondary');
    expect(within(dialog).getByTestId('csv-file-name')).toHaveTextContent('No file chosen');

    await app.user.upload(
      input,
      new File(['name,phone\nAna,2125550101\n'], 'customers.csv', { type: 'text/csv' }),
    );
    expect(within(dialog).getByTestId('csv-file-name')).toHaveTextContent('customers.csv');
    expect(input).toHaveAccessibleDescription('customers.csv');
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Or paste the CSV')).toHaveValue('name,phone\nAna,2125550101\n'),
    );
  });
});
