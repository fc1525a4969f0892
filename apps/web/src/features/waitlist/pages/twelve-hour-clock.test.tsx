import { screen, waitFor, within } from '@testing-library/react';
import type { ConversationSummary, InboxMessage } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../test/fixtures.ts';
import { mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import {
  makeCustomer,
  makeMessage,
  templatesAnswer,
  waitlistAnswer,
} from '../../../test/waitlist-fixtures.ts';

const cleo = makeCustomer({
  name: 'Cleo Park',
  preferences: [
    { days: [1, 2, 3, 4, 5], from: '09:00', to: '17:00' },
    { days: [0, 6], from: '12:30', to: '00:00' },
  ],
});

async function openWaitlist() {
  mockSignedIn(makeUser({ plivoNumberStatus: 'verified' }), {
    'GET /waitlist': waitlistAnswer({ customers: [cleo] }),
    'GET /message-templates': templatesAnswer(),
  });
  const app = renderApp('/waitlist', { token: 'tok' });
  await screen.findByRole('listitem', { name: 'Cleo Park' });
  return app;
}

describe('time preferences on the 12-hour clock of a US business (issue 27)', () => {
  it('the list reads a 09:00–17:00 preference as "9:00 am–5:00 pm"', async () => {
    await openWaitlist();
    const row = screen.getByRole('listitem', { name: 'Cleo Park' });
    expect(
      within(row).getByText('Weekdays 9:00 am–5:00 pm · Weekends 12:30 pm–12:00 am'),
    ).toBeInTheDocument();
    expect(row.textContent).not.toContain('17:00');
  });

  it('the edit form keeps native time inputs and reads each preference back in am/pm', async () => {
    const app = await openWaitlist();
    await app.user.click(screen.getByRole('button', { name: 'Edit Cleo Park' }));
    const dialog = await screen.findByRole('dialog');
    const from = within(dialog).getAllByLabelText('From')[0] as HTMLInputElement;
    expect(from).toHaveAttribute('type', 'time');
    expect(from).toHaveValue('09:00');
    const summaries = within(dialog).getAllByTestId('preference-summary');
    expect(summaries.map((line) => line.textContent)).toEqual([
      'Weekdays 9:00 am–5:00 pm',
      'Weekends 12:30 pm–12:00 am',
    ]);
    await app.user.click(within(dialog).getAllByRole('checkbox', { name: 'Monday' })[0] as HTMLElement);
    await waitFor(() => expect(summaries[0]).toHaveTextContent('Tue, Wed, Thu, Fri 9:00 am–5:00 pm'));
  });

  it('the add form shows a new preference as "Weekdays 9:00 am–5:00 pm"', async () => {
    const app = await openWaitlist();
    await app.user.click(screen.getByRole('button', { name: 'Add customer' }));
    const dialog = await screen.findByRole('dialog');
    await app.user.click(within(dialog).getByRole('button', { name: 'Add a time preference' }));
    expect(within(dialog).getByTestId('preference-summary')).toHaveTextContent('Weekdays 9:00 am–5:00 pm');
  });
});

describe('the inbox on the 12-hour clock (issue 27)', () => {
  const ann = makeCustomer({ name: 'Ann Lee', phone: '+12125550101' });
  const conversations: ConversationSummary[] = [
    {
      customer: ann,
      lastMessage: { body: 'what time?', direction: 'in', createdAt: '2030-01-03T14:05:00.000Z' },
      lastReply: { body: 'what time?', createdAt: '2030-01-03T14:05:00.000Z' },
      unread: 1,
    },
  ];
  const thread: InboxMessage[] = [
    {
      ...makeMessage({
        direction: 'in',
        body: 'what time?',
        status: 'received',
        createdAt: '2030-01-03T22:40:00.000Z',
      }),
      context: null,
    },
  ];

  it('shows message times as "9:05 am" and "5:40 pm" in the business zone', async () => {
    mockSignedIn(makeUser({ plivoNumberStatus: 'verified' }), {
      'GET /inbox': {
        body: { success: true, data: conversations, nextCursor: null, timeZone: 'America/New_York' },
      },
      'GET /inbox/unread': { body: { success: true, data: { unread: 1 } } },
      [`GET /inbox/${ann.id}`]: {
        body: { success: true, customer: ann, data: thread, timeZone: 'America/New_York' },
      },
    });
    renderApp(`/inbox/${ann.id}`, { token: 'tok' });
    const list = await screen.findByRole('navigation', { name: 'Conversations' });
    expect(within(list).getByText('Jan 3, 9:05 am EST')).toBeInTheDocument();
    const messages = await screen.findByRole('list', { name: 'Texts with Ann Lee' });
    expect(within(messages).getByText('Jan 3, 5:40 pm EST')).toBeInTheDocument();
    expect(messages.textContent).not.toMatch(/\d (AM|PM)/);
  });
});
