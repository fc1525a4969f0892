import { screen, waitFor, within } from '@testing-library/react';
import { authMessages, screenMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { advance, fakeTheClock, settle } from '../../../test/clock.ts';
import { errorAnswer, makeUser } from '../../../test/fixtures.ts';
import { mockApi, mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

const resetAnswer = { body: { success: true, message: screenMessages.passwordResetSuccess } };

async function fillPasswords(app: ReturnType<typeof renderApp>, password: string, confirm: string) {
  if (password) await app.user.type(screen.getByLabelText('New password'), password);
  if (confirm) await app.user.type(screen.getByLabelText('Confirm new password'), confirm);
  await app.user.click(screen.getByRole('button', { name: 'Reset password' }));
}

describe('reset password page', () => {
  it('asks for both passwords, at least 6 characters, and that they match', async () => {
    const api = mockApi({ 'PUT /auth/resetpassword/tok-1': resetAnswer });
    const app = renderApp('/reset-password/tok-1');
    await screen.findByRole('heading', { name: 'Choose a new password' });

    await fillPasswords(app, '', '');
    expect(await screen.findByText('Password is required')).toBeInTheDocument();
    expect(screen.getByText('Please confirm your password')).toBeInTheDocument();

    await fillPasswords(app, 'abc12', 'abc12');
    expect(await screen.findByText('Password must be at least 6 characters')).toBeInTheDocument();

    await app.user.clear(screen.getByLabelText('New password'));
    await app.user.clear(screen.getByLabelText('Confirm new password'));
    await fillPasswords(app, 'secret1', 'secret2');
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(screen.getByLabelText('Confirm new password')).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo('PUT /auth/resetpassword/tok-1')).toHaveLength(0);
  });

  it('sends only the new password, confirms, then goes to /login after 3 s', async () => {
    const api = mockApi({ 'PUT /auth/resetpassword/tok-1': resetAnswer });
    const app = renderApp('/reset-password/tok-1');
    await screen.findByRole('heading', { name: 'Choose a new password' });

    fakeTheClock();
    await fillPasswords(app, 'secret1', 'secret1');
    await settle(() => expect(screen.getByRole('heading', { name: 'Password updated' })).toBeInTheDocument());
    expect(api.callsTo('PUT /auth/resetpassword/tok-1')[0]!.body).toEqual({ password: 'secret1' });
    const main = screen.getByRole('main');
    expect(within(main).getByText(screenMessages.passwordResetSuccess)).toBeInTheDocument();

    // SPEC §9: 3 s after the reset.
    await advance(2999);
    expect(app.location()).toBe('/reset-password/tok-1');
    await advance(1);
    expect(app.location()).toBe('/login');
    expect(screen.getByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
  });

  it('shows the Invalid Reset Link view, with a way to ask again, when the link has no token', async () => {
    const app = renderApp('/reset-password');
    mockApi();
    expect(await screen.findByRole('heading', { name: 'Invalid Reset Link' })).toBeInTheDocument();
    // On the page (the box) and, as SPEC §8 lists it among the toasts, in a toast too.
    expect(within(screen.getByRole('main')).getByText(screenMessages.invalidResetToken)).toBeInTheDocument();
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent(screenMessages.invalidResetToken);
    expect(toast).toHaveClass('toast--error');
    expect(screen.getAllByTestId('toast')).toHaveLength(1);
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    await app.user.click(screen.getByRole('link', { name: 'Request a new reset link' }));
    expect(app.location()).toBe('/forgot-password');
  });

  it('a success clears the Reset Failed toast before it, instead of showing both', async () => {
    let attempts = 0;
    mockApi({
      'PUT /auth/resetpassword/tok-2': () => {
        attempts += 1;
        return attempts === 1 ? errorAnswer(500) : resetAnswer;
      },
    });
    const app = renderApp('/reset-password/tok-2');
    await screen.findByRole('heading', { name: 'Choose a new password' });
    await fillPasswords(app, 'secret1', 'secret1');
    expect(await screen.findByTestId('toast')).toHaveTextContent('Reset Failed');
    await app.user.click(screen.getByRole('button', { name: 'Reset password' }));
    await screen.findByRole('heading', { name: 'Password updated' });
    const region = screen.getByRole('region', { name: 'Notifications' });
    await waitFor(() => expect(within(region).queryByText('Reset Failed')).not.toBeInTheDocument());
    expect(within(region).getByText(screenMessages.passwordResetSuccess)).toBeInTheDocument();
  });

  it('shows the server reason in a Reset Failed toast when the token is expired or used', async () => {
    mockApi({ 'PUT /auth/resetpassword/old': errorAnswer(400, authMessages.resetTokenInvalid) });
    const app = renderApp('/reset-password/old');
    await screen.findByRole('heading', { name: 'Choose a new password' });
    await fillPasswords(app, 'secret1', 'secret1');
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent('Reset Failed');
    expect(toast).toHaveTextContent(authMessages.resetTokenInvalid);
    expect(app.location()).toBe('/reset-password/old');
  });

  it('falls back to the SPEC message when the server gives none', async () => {
    mockApi({ 'PUT /auth/resetpassword/tok-1': errorAnswer(500) });
    const app = renderApp('/reset-password/tok-1');
    await screen.findByRole('heading', { name: 'Choose a new password' });
    await fillPasswords(app, 'secret1', 'secret1');
    expect(await screen.findByTestId('toast')).toHaveTextContent(screenMessages.resetFailed);
  });

  it('sends logged-in users to /account', async () => {
    mockSignedIn(makeUser());
    const app = renderApp('/reset-password/tok-1', { token: 'tok' });
    await screen.findByRole('heading', { name: 'My Account' });
    expect(app.location()).toBe('/account');
  });
});
