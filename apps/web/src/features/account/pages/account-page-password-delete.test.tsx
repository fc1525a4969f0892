import { screen, within } from '@testing-library/react';
import { authMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { errorAnswer, makeUser } from '../../../test/fixtures.ts';
import type { renderApp } from '../../../test/render-app.tsx';
import { expectToast, type Handlers, openAccount, toastTexts } from './account-page.test-helpers.tsx';

describe('change password', () => {
  const fields = () => ({
    current: screen.getByLabelText('Current password'),
    next: screen.getByLabelText('New password'),
    confirm: screen.getByLabelText('Confirm new password'),
    button: screen.getByRole('button', { name: 'Update Password' }),
  });

  async function change(app: ReturnType<typeof renderApp>, current: string, next: string, confirm: string) {
    const form = fields();
    await app.user.type(form.current, current);
    await app.user.type(form.next, next);
    await app.user.type(form.confirm, confirm);
    await app.user.click(form.button);
  }

  it('is enabled only when all three fields are filled', async () => {
    const { app } = await openAccount();
    const form = fields();
    expect(form.button).toBeDisabled();
    await app.user.type(form.current, 'old-secret');
    await app.user.type(form.next, 'new-secret');
    expect(form.button).toBeDisabled();
    await app.user.type(form.confirm, 'n');
    expect(form.button).toBeEnabled();
  });

  it('says when the new password and confirmation differ', async () => {
    const { app, api } = await openAccount();
    await change(app, 'old-secret', 'new-secret', 'new-secreT');
    expect(await screen.findByText('New password and confirmation do not match')).toBeInTheDocument();
    expect(api.callsTo('PUT /auth/updatepassword')).toHaveLength(0);
  });

  it('wants at least 6 characters', async () => {
    const { app, api } = await openAccount();
    await change(app, 'old-secret', 'abc', 'abc');
    expect(await screen.findByText('Password must be at least 6 characters long')).toBeInTheDocument();
    expect(api.callsTo('PUT /auth/updatepassword')).toHaveLength(0);
  });

  it('says the current password is wrong on a 401, and keeps the session', async () => {
    const { app } = await openAccount('/account', {
      'PUT /auth/updatepassword': errorAnswer(401, authMessages.currentPasswordIncorrect),
    });
    await change(app, 'wrong-secret', 'new-secret', 'new-secret');
    await expectToast('Current password is incorrect');
    expect(fields().current).toHaveAccessibleDescription('Current password is incorrect');
    expect(app.location()).toBe('/account');
    expect(localStorage.getItem('token')).toBe('tok');
  });

  it('updates the password, clears the form and keeps this session (the answer has no token)', async () => {
    const { app, api } = await openAccount('/account', {
      'PUT /auth/updatepassword': {
        body: { success: true, message: 'Your password has been updated successfully.' },
      },
      'PUT /auth/updatedetails': errorAnswer(500),
    });
    await change(app, 'old-secret', 'new-secret', 'new-secret');
    await expectToast('Your password has been updated successfully.');
    expect(api.callsTo('PUT /auth/updatepassword')[0]!.body).toEqual({
      currentPassword: 'old-secret',
      newPassword: 'new-secret',
    });
    const form = fields();
    expect(form.current).toHaveValue('');
    expect(form.next).toHaveValue('');
    expect(form.confirm).toHaveValue('');
    expect(form.button).toBeDisabled();
    expect(localStorage.getItem('token')).toBe('tok');

    // The next call still carries the token this session was opened with.
    await app.user.type(screen.getByLabelText('First name'), 'x');
    await app.user.click(screen.getByRole('button', { name: 'Save Information' }));
    await expectToast('Failed to update profile');
    expect(api.callsTo('PUT /auth/updatedetails')[0]!.headers.authorization).toBe('Bearer tok');
  });

  it('is not offered to users who sign in with Google, Facebook or Apple', async () => {
    await openAccount(
      '/account',
      {},
      makeUser({ isExternalAuth: true, provider: 'google', providerId: 'g-1' }),
    );
    expect(screen.queryByRole('heading', { name: 'Change Password' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument();
  });
});

describe('delete account', () => {
  async function openDialog(handlers: Handlers = {}) {
    // SPEC §2: Delete My Account sits on the Plan tab.
    const opened = await openAccount('/account?tab=plan', {
      'DELETE /auth/account': { body: { success: true, message: authMessages.accountDeleted } },
      ...handlers,
    });
    await opened.app.user.click(screen.getByRole('button', { name: 'Delete My Account' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Account' });
    return { ...opened, dialog, field: within(dialog).getByLabelText('Type DELETE to confirm') };
  }

  it('needs DELETE typed exactly', async () => {
    const { app, api, dialog, field } = await openDialog();
    expect(field).toHaveFocus();
    await app.user.click(within(dialog).getByRole('button', { name: 'Delete Account' }));
    expect(await within(dialog).findByText('Please type DELETE to confirm')).toBeInTheDocument();
    await app.user.type(field, 'delete');
    await app.user.click(within(dialog).getByRole('button', { name: 'Delete Account' }));
    expect(within(dialog).getByText('Please type DELETE to confirm')).toBeInTheDocument();
    expect(api.callsTo('DELETE /auth/account')).toHaveLength(0);
  });

  it('can be cancelled', async () => {
    const { app, api, dialog } = await openDialog();
    await app.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.callsTo('DELETE /auth/account')).toHaveLength(0);
  });

  it('deletes, logs out and goes to /login', async () => {
    // As on the real server, the session dies with the account, so the logout call answers 401.
    const { app, api, dialog, field } = await openDialog({
      'POST /auth/logout': errorAnswer(401, authMessages.sessionExpired),
    });
    await app.user.type(field, 'DELETE');
    await app.user.click(within(dialog).getByRole('button', { name: 'Delete Account' }));
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(app.location()).toBe('/login');
    expect(api.callsTo('DELETE /auth/account')).toHaveLength(1);
    expect(localStorage.getItem('token')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Account' })).not.toBeInTheDocument();
    expect(toastTexts()).toEqual([expect.stringContaining(authMessages.accountDeleted)]);
  });

  it('stays and says so when the deletion fails', async () => {
    const { app, dialog, field } = await openDialog({ 'DELETE /auth/account': errorAnswer(500) });
    await app.user.type(field, 'DELETE');
    await app.user.click(within(dialog).getByRole('button', { name: 'Delete Account' }));
    await expectToast('Failed to delete account. Please try again.');
    expect(app.location()).toBe('/account?tab=plan');
    expect(localStorage.getItem('token')).toBe('tok');
  });

  it('is not on the information tab', async () => {
    await openAccount('/account?tab=information');
    expect(screen.queryByRole('button', { name: 'Delete My Account' })).not.toBeInTheDocument();
  });
});
