import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

const toastTexts = () => screen.queryAllByTestId('toast').map((toast) => toast.textContent);

describe('social sign-in buttons without client ids (GET /config answers null)', () => {
  it.each([
    ['Google', 'Google Sign-In is not configured...'],
    ['Facebook', 'Facebook Sign-In is not configured...'],
    ['Apple', 'Apple Sign-In is not configured...'],
  ])('say %s sign-in is not configured on the login page', async (provider, message) => {
    const api = mockApi();
    const app = renderApp('/login');
    await screen.findByRole('heading', { name: 'Welcome back' });
    await app.user.click(screen.getByRole('button', { name: `Continue with ${provider}` }));
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent(message);
    expect(toast).toHaveClass('toast--warning');
    expect(app.location()).toBe('/login');
    expect(api.calls.filter((call) => call.path.startsWith('/auth'))).toHaveLength(0);
  });

  it('on sign-up, want the terms accepted before Google or Facebook', async () => {
    mockApi();
    const app = renderApp('/register');
    await screen.findByRole('heading', { name: 'Create your account' });
    const terms = screen.getByRole('checkbox', { name: 'I accept the Terms of Service' });

    await app.user.click(screen.getByRole('button', { name: 'Continue with Google' }));
    expect(
      await screen.findByText('You must accept the Terms of Service before continuing with Google'),
    ).toBeInTheDocument();
    expect(terms).toHaveFocus();
    expect(toastTexts()).toEqual([]);

    await app.user.click(screen.getByRole('button', { name: 'Continue with Facebook' }));
    expect(
      await screen.findByText('You must accept the Terms of Service before continuing with Facebook'),
    ).toBeInTheDocument();
    expect(toastTexts()).toEqual([]);

    await app.user.click(terms);
    await app.user.click(screen.getByRole('button', { name: 'Continue with Google' }));
    expect(await screen.findByTestId('toast')).toHaveTextContent('Google Sign-In is not configured...');
  });

  it('on sign-up, let Apple through without the terms box (as implemented)', async () => {
    mockApi();
    const app = renderApp('/register');
    await screen.findByRole('heading', { name: 'Create your account' });
    await app.user.click(screen.getByRole('button', { name: 'Continue with Apple' }));
    const region = screen.getByRole('region', { name: 'Notifications' });
    expect(await within(region).findByText('Apple Sign-In is not configured...')).toBeInTheDocument();
    expect(screen.queryByText(/before continuing with/)).not.toBeInTheDocument();
  });
});
