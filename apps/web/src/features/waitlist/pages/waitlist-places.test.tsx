import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../test/fixtures.ts';
import { mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { makeCustomer, templatesAnswer, waitlistAnswer } from '../../../test/waitlist-fixtures.ts';

/** Issue 27: each row shows where the customer really is in line, and since when they wait. */
describe('places in line', () => {
  it('shows a searched customer at their real place, a removed one at none, and since when each waits', async () => {
    const thisYear = new Date().getFullYear();
    mockSignedIn(makeUser({ plivoNumberStatus: 'verified' }), {
      'GET /waitlist': waitlistAnswer({
        customers: [
          {
            ...makeCustomer({ name: 'Marcus Five', createdAt: `${thisYear}-03-04T15:00:00.000Z` }),
            place: 5,
          },
          { ...makeCustomer({ name: 'Marc Gone', status: 'removed' }), place: null },
        ],
      }),
      'GET /message-templates': templatesAnswer(),
    });
    const app = renderApp('/waitlist', { token: 'tok' });
    await screen.findByRole('heading', { level: 1, name: 'Waitlist' });
    await waitFor(() => expect(screen.getByRole('listitem', { name: 'Marcus Five' })).toBeInTheDocument());
    const marcus = screen.getByRole('listitem', { name: 'Marcus Five' });
    expect(within(marcus).getByText(/^Place/).parentElement).toHaveTextContent('Place 5');
    expect(within(marcus).getByTestId('waiting-since')).toHaveTextContent('Waiting since Mar 4');
    // The Removed filter lists removed customers, at no place.
    await app.user.click(screen.getByRole('button', { name: 'Removed' }));
    const gone = await screen.findByRole('listitem', { name: 'Marc Gone' });
    expect(within(gone).getByText('Removed, not in line')).toBeInTheDocument();
    expect(within(gone).queryByTestId('waiting-since')).toBeNull();
  });
});
