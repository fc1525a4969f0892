import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { billingApi } from '../test/billing-fixtures.ts';
import { makeUser } from '../test/fixtures.ts';
import { mockSignedIn } from '../test/mock-api.ts';
import { renderApp } from '../test/render-app.tsx';

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
