import { act, screen, waitFor, within } from '@testing-library/react';
import { type Customer, waitlistMessages } from '@waitlist/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { billingApi } from '../test/billing-fixtures.ts';
import { makeUser } from '../test/fixtures.ts';
import { mockSignedIn } from '../test/mock-api.ts';
import { renderApp } from '../test/render-app.tsx';
import { makeCustomer, templatesAnswer, waitlistAnswer } from '../test/waitlist-fixtures.ts';

function screenWidth(phone: boolean) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({ matches: phone && query.includes('max-width'), media: query })),
  );
}

async function toastThenNextPage(how: { replace: boolean } = { replace: false }) {
  mockSignedIn(makeUser(), billingApi().handlers);
  const app = renderApp('/toast-demo', { token: 'tok' });
  await app.user.click(await screen.findByRole('button', { name: 'Show warning toast' }));
  expect(screen.getByTestId('toast')).toBeInTheDocument();
  // Two seconds later the owner moves on.
  const shownAt = Date.now();
  vi.spyOn(Date, 'now').mockReturnValue(shownAt + 2000);
  await act(() => app.router.navigate('/account', how));
  await screen.findByRole('heading', { level: 1, name: 'My Account' });
  return app;
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('toasts and the next page', () => {
  it('on a phone, a toast does not follow the owner to the next page', async () => {
    screenWidth(true);
    await toastThenNextPage();
    await waitFor(() => expect(screen.queryByTestId('toast')).not.toBeInTheDocument());
  });

  it('on a phone, a redirect keeps it (SPEC §4: the verification banner, 5 s across the move)', async () => {
    screenWidth(true);
    await toastThenNextPage({ replace: true });
    expect(screen.getByTestId('toast')).not.toHaveClass('toast--leaving');
  });

  it('on a wider screen it keeps its whole time (SPEC §4 verification banner, 5 s)', async () => {
    screenWidth(false);
    await toastThenNextPage();
    expect(screen.getByTestId('toast')).not.toHaveClass('toast--leaving');
  });
});

/** A 390 × 844 phone where the dialog's submit button sits at the foot of the screen, under the thumb. */
function submitAtTheFoot(label: string) {
  vi.stubGlobal('innerHeight', 844);
  const original = Element.prototype.getBoundingClientRect;
  vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
    if (this.textContent?.trim() !== label) return original.call(this);
    return { top: 780, bottom: 824, left: 16, right: 374, width: 358, height: 44, x: 16, y: 780 } as DOMRect;
  });
}

describe('a toast and the button just tapped (issue 39)', () => {
  it('"Customer added" does not land on "Add to waitlist" at 390 px', async () => {
    screenWidth(true);
    submitAtTheFoot('Add to waitlist');
    mockSignedIn(makeUser({ plivoNumberStatus: 'verified' }), {
      'GET /waitlist': waitlistAnswer({ customers: [] }),
      'GET /message-templates': templatesAnswer(),
      'POST /waitlist': (call) => ({
        status: 201,
        body: {
          success: true,
          data: makeCustomer(call.body as Partial<Customer>),
          message: waitlistMessages.customerAdded,
        },
      }),
    });
    const app = renderApp('/waitlist', { token: 'tok' });
    await screen.findByRole('heading', { level: 1, name: 'Waitlist' });
    await waitFor(() => expect(screen.queryByText('Loading your waitlist…')).not.toBeInTheDocument());
    await app.user.click(screen.getByRole('button', { name: 'Add customer' }));
    const dialog = screen.getByRole('dialog');
    await app.user.type(within(dialog).getByLabelText('Name'), 'Maria Lopez');
    await app.user.type(within(dialog).getByLabelText('Mobile phone'), '2125550143');
    await app.user.selectOptions(within(dialog).getByLabelText('How did they agree to texts?'), 'verbal');
    await app.user.click(within(dialog).getByRole('button', { name: 'Add to waitlist' }));

    expect(await screen.findByText(waitlistMessages.customerAdded)).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Notifications' })).toHaveAttribute('data-edge', 'top');
  });
});
