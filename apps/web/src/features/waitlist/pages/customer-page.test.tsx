import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorAnswer, makeUser } from '../../../test/fixtures.ts';
import { type MockAnswer, mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { makeCustomer, makeMessage, templatesAnswer } from '../../../test/waitlist-fixtures.ts';

function openConversation(id: string, answer: MockAnswer) {
  mockSignedIn(makeUser({ plivoNumberStatus: 'verified' }), {
    [`GET /waitlist/${id}/messages`]: answer,
    'GET /message-templates': templatesAnswer(),
  });
  return renderApp(`/waitlist/${id}`, { token: 'tok' });
}

describe('customer conversation', () => {
  it('shows every text in and out with delivery status and reply keywords', async () => {
    const maria = makeCustomer({ name: 'Maria', optedOut: true, status: 'waiting' });
    openConversation(maria.id, {
      body: {
        success: true,
        customer: maria,
        data: [
          makeMessage({ body: 'A spot opened: Tue 3 PM. Reply YES', status: 'delivered' }),
          makeMessage({ direction: 'in', body: ' yes! ', status: 'received' }),
          makeMessage({ body: 'Reminder', status: 'failed', error: 'Carrier rejected the text' }),
          makeMessage({ direction: 'in', body: 'Stop', status: 'received' }),
        ],
      },
    });
    const thread = await screen.findByRole('list', { name: 'Texts with Maria' });
    const bubbles = within(thread).getAllByRole('listitem');
    expect(bubbles).toHaveLength(4);
    expect(within(bubbles[0] as HTMLElement).getByText('Delivered')).toBeInTheDocument();
    expect(within(bubbles[1] as HTMLElement).getByText('YES · claims an opening')).toBeInTheDocument();
    expect(within(bubbles[2] as HTMLElement).getByText('Failed')).toBeInTheDocument();
    expect(within(bubbles[2] as HTMLElement).getByText('Carrier rejected the text')).toBeInTheDocument();
    expect(within(bubbles[3] as HTMLElement).getByText('STOP · opted out')).toBeInTheDocument();
    expect(screen.getByText(/texted STOP and gets no texts/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send a text' })).toBeDisabled();
    expect(screen.getByRole('heading', { level: 1, name: 'Maria' })).toBeInTheDocument();
  });

  it('says when there are no texts yet', async () => {
    const maria = makeCustomer({ name: 'Maria' });
    openConversation(maria.id, { body: { success: true, customer: maria, data: [] } });
    expect(await screen.findByText(/No texts yet/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send a text' })).toBeEnabled();
  });

  it('says when the customer is not on the waitlist', async () => {
    openConversation('00000000-0000-4000-8000-999999999999', errorAnswer(404, 'Customer not found'));
    expect(await screen.findByText('This customer is not on your waitlist.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '← Waitlist' })).toHaveAttribute('href', '/waitlist');
  });
});
