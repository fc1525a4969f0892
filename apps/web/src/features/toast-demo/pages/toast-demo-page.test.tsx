import { screen, within } from '@testing-library/react';
import { TOAST_DEFAULT_MS, TOAST_ERROR_MS, TOAST_EXIT_MS } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { advance, useFakeClock } from '../../../test/clock.ts';
import { makeUser } from '../../../test/fixtures.ts';
import { mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

async function openDemo() {
  mockSignedIn(makeUser());
  const app = renderApp('/toast-demo', { token: 'tok' });
  await screen.findByRole('heading', { name: 'Toast demo' });
  useFakeClock();
  return app;
}

const toastWith = (text: string) => {
  const toast = within(screen.getByRole('region', { name: 'Notifications' }))
    .getByText(text)
    .closest<HTMLElement>('[data-testid="toast"]');
  if (!toast) throw new Error(`no toast says ${text}`);
  return toast;
};

describe('toast demo page', () => {
  it('shows the four types, each with its title', async () => {
    const app = await openDemo();
    for (const type of ['success', 'error', 'warning', 'info']) {
      await app.user.click(screen.getByRole('button', { name: `Show ${type} toast` }));
    }
    const toasts = screen.getAllByTestId('toast');
    expect(toasts.map((toast) => toast.className)).toEqual([
      'toast toast--success',
      'toast toast--error',
      'toast toast--warning',
      'toast toast--info',
    ]);
    expect(toasts.map((toast) => toast.querySelector('.toast__title')?.textContent)).toEqual([
      'Success',
      'Error',
      'Warning',
      'Info',
    ]);
    expect(toastWith('Something went wrong. Please try again.')).toHaveAttribute('aria-live', 'assertive');
    expect(toastWith('A new feature is available.')).toHaveAttribute('aria-live', 'polite');
  });

  it.each([
    ['success', 'Your changes have been saved.', TOAST_DEFAULT_MS],
    ['warning', 'Your trial ends in 2 days.', TOAST_DEFAULT_MS],
    ['info', 'A new feature is available.', TOAST_DEFAULT_MS],
    ['error', 'Something went wrong. Please try again.', TOAST_ERROR_MS],
  ])('keeps the %s toast for its time, then lets it leave in 300 ms', async (type, message, duration) => {
    const app = await openDemo();
    await app.user.click(screen.getByRole('button', { name: `Show ${type} toast` }));
    const toast = toastWith(message);

    await advance(duration - 1);
    expect(toast).not.toHaveClass('toast--leaving');
    await advance(1);
    expect(toast).toHaveClass('toast--leaving');
    await advance(TOAST_EXIT_MS - 1);
    expect(toast).toBeInTheDocument();
    await advance(1);
    expect(toast).not.toBeInTheDocument();
  });

  it('closes a toast from its close button', async () => {
    const app = await openDemo();
    await app.user.click(screen.getByRole('button', { name: 'Show error toast' }));
    await app.user.click(screen.getByRole('button', { name: 'Show info toast' }));
    const error = toastWith('Something went wrong. Please try again.');
    await app.user.click(within(error).getByRole('button', { name: 'Close notification' }));
    expect(error).toHaveClass('toast--leaving');
    await advance(TOAST_EXIT_MS);
    expect(error).not.toBeInTheDocument();
    expect(toastWith('A new feature is available.')).not.toHaveClass('toast--leaving');
  });
});
