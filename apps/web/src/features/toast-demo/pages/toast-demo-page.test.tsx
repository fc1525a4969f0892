import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { advance, fakeTheClock } from '../../../test/clock.ts';
import { makeUser } from '../../../test/fixtures.ts';
import { mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

async function openDemo() {
  mockSignedIn(makeUser());
  const app = renderApp('/toast-demo', { token: 'tok' });
  await screen.findByRole('heading', { name: 'Toast demo' });
  fakeTheClock();
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

  // SPEC §9: errors stay 7000 ms, the others 5000 ms; all leave with a 300 ms exit animation.
  it.each([
    ['success', 'Your changes have been saved.', 5000],
    ['warning', 'Your trial ends in 2 days.', 5000],
    ['info', 'A new feature is available.', 5000],
    ['error', 'Something went wrong. Please try again.', 7000],
  ])('keeps the %s toast for its time, then lets it leave in 300 ms', async (type, message, duration) => {
    const app = await openDemo();
    await app.user.click(screen.getByRole('button', { name: `Show ${type} toast` }));
    const toast = toastWith(message);

    await advance(duration - 1);
    expect(toast).not.toHaveClass('toast--leaving');
    await advance(1);
    expect(toast).toHaveClass('toast--leaving');
    await advance(300 - 1);
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
    await advance(300);
    expect(error).not.toBeInTheDocument();
    expect(toastWith('A new feature is available.')).not.toHaveClass('toast--leaving');
  });
});
