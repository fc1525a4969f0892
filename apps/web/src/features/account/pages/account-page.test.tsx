import { screen, waitFor, within } from '@testing-library/react';
import { authMessages, screenMessages, type User } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { billingApi } from '../../../test/billing-fixtures.ts';
import { errorAnswer, makeUser } from '../../../test/fixtures.ts';
import { mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

type Handlers = Parameters<typeof mockSignedIn>[1];

async function openAccount(
  path = '/account',
  handlers: Handlers = {},
  user: User | (() => User) = makeUser(),
) {
  const api = mockSignedIn(user, { ...billingApi().handlers, ...handlers });
  const app = renderApp(path, { token: 'tok' });
  await screen.findByRole('heading', { level: 1, name: 'My Account' });
  return { app, api };
}

const toastTexts = () => screen.queryAllByTestId('toast').map((toast) => toast.textContent);
const expectToast = async (text: string) =>
  expect(
    await within(screen.getByRole('region', { name: 'Notifications' })).findByText(text),
  ).toBeInTheDocument();

describe('account page tabs', () => {
  it.each([
    ['/account', 'Your information'],
    ['/account?tab=information', 'Your information'],
    ['/account?tab=plan', 'Current Plan'],
    ['/account?tab=billing', 'Payment Methods'],
    ['/account?tab=settings', 'Your information'],
    ['/account?tab=PLAN', 'Your information'],
    ['/account?tab=', 'Your information'],
  ])('%s shows %s', async (path, heading) => {
    await openAccount(path);
    expect(screen.getByRole('heading', { level: 2, name: heading })).toBeInTheDocument();
    const others = ['Your information', 'Current Plan', 'Payment Methods'].filter((name) => name !== heading);
    for (const other of others) {
      expect(screen.queryByRole('heading', { level: 2, name: other })).not.toBeInTheDocument();
    }
  });

  it('shows only the Update My Information button in the tab bar', async () => {
    await openAccount('/account?tab=plan');
    const tabs = screen.getByRole('navigation', { name: 'Account sections' });
    expect(
      within(tabs)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Update My Information']);
  });

  it('puts the tab in the address when it changes, as a step the browser can go back to', async () => {
    const { app } = await openAccount('/account?tab=billing');
    expect(await screen.findByRole('heading', { level: 2, name: 'Payment Methods' })).toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Update My Information' }));
    expect(app.location()).toBe('/account?tab=information');
    expect(screen.getByRole('heading', { level: 2, name: 'Your information' })).toBeInTheDocument();

    await app.router.navigate(-1);
    expect(await screen.findByRole('heading', { level: 2, name: 'Payment Methods' })).toBeInTheDocument();
    expect(app.location()).toBe('/account?tab=billing');
    await app.router.navigate(1);
    expect(await screen.findByRole('heading', { level: 2, name: 'Your information' })).toBeInTheDocument();

    await app.user.click(screen.getByRole('link', { name: 'View plan' }));
    expect(app.location()).toBe('/account?tab=plan');
    expect(screen.getByRole('heading', { level: 2, name: 'Current Plan' })).toBeInTheDocument();

    await app.user.click(screen.getByRole('button', { name: 'Update My Information' }));
    expect(app.location()).toBe('/account?tab=information');

    await app.router.navigate(-1);
    expect(await screen.findByRole('heading', { level: 2, name: 'Current Plan' })).toBeInTheDocument();
    expect(app.location()).toBe('/account?tab=plan');
  });

  it('marks the information tab as current only on the information tab', async () => {
    const { app } = await openAccount('/account?tab=plan');
    const tab = screen.getByRole('button', { name: 'Update My Information' });
    expect(tab).not.toHaveAttribute('aria-current');
    await app.user.click(tab);
    expect(tab).toHaveAttribute('aria-current', 'page');
  });
});

describe('profile form', () => {
  const saveButton = () => screen.getByRole('button', { name: 'Save Information' });

  it('is filled from the user, with the phone formatted', async () => {
    await openAccount();
    expect(screen.getByLabelText('First name')).toHaveValue('Bella');
    expect(screen.getByLabelText('Last name')).toHaveValue('Rossi');
    expect(screen.getByLabelText(/Business name/)).toHaveValue('Bella Salon');
    expect(screen.getByLabelText('Business phone')).toHaveValue('(555) 123-4567');
    expect(screen.getByLabelText('Email')).toHaveValue('bella@example.com');
  });

  it('enables Save Information only after a change', async () => {
    const { app } = await openAccount();
    expect(saveButton()).toBeDisabled();
    await app.user.type(screen.getByLabelText('First name'), 'x');
    expect(saveButton()).toBeEnabled();
    await app.user.type(screen.getByLabelText('First name'), '{Backspace}');
    expect(saveButton()).toBeDisabled();
  });

  it('saves the edited fields without the phone and says so', async () => {
    let user = makeUser();
    const { app, api } = await openAccount(
      '/account',
      {
        'PUT /auth/updatedetails': ({ body }) => {
          user = { ...user, ...(body as Partial<User>) };
          return { body: { success: true, data: user, message: authMessages.detailsUpdated } };
        },
      },
      () => user,
    );
    await app.user.clear(screen.getByLabelText('First name'));
    await app.user.type(screen.getByLabelText('First name'), 'Isabella');
    await app.user.clear(screen.getByLabelText('Business phone'));
    await app.user.type(screen.getByLabelText('Business phone'), '5559876543');
    expect(screen.getByLabelText('Business phone')).toHaveValue('(555) 987-6543');
    await app.user.click(saveButton());

    await expectToast('Your profile information has been updated successfully');
    expect(api.callsTo('PUT /auth/updatedetails')[0]!.body).toEqual({
      firstName: 'Isabella',
      lastName: 'Rossi',
      email: 'bella@example.com',
      businessName: 'Bella Salon',
      businessAddress: '12 Main St',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
    });
    expect(screen.getByText(/Isabella Rossi/)).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
  });

  it('SPEC §5: a half-typed phone does not block Save, and is not sent', async () => {
    const { app, api } = await openAccount('/account', {
      'PUT /auth/updatedetails': { body: { success: true, data: makeUser(), message: 'ok' } },
    });
    await app.user.clear(screen.getByLabelText('Business phone'));
    await app.user.type(screen.getByLabelText('Business phone'), '55512');
    expect(screen.getByLabelText('Business phone')).toHaveValue('(555) 12');
    await app.user.click(saveButton());
    await expectToast('Your profile information has been updated successfully');
    expect(screen.queryByText('Please enter a valid 10-digit phone number')).not.toBeInTheDocument();
    expect(api.callsTo('PUT /auth/updatedetails')).toHaveLength(1);
    expect(api.callsTo('PUT /auth/updatedetails')[0]!.body).not.toHaveProperty('businessPhone');
  });

  it('SPEC §8: when the profile cannot be fetched, says so on the page and in a toast, and can try again', async () => {
    let meCalls = 0;
    const user = makeUser();
    const { app, api } = await openAccount('/account', {
      // The first read signs the owner in; the account page's own profile fetch fails once.
      'GET /auth/me': () => {
        meCalls += 1;
        return meCalls === 2 ? errorAnswer(500) : { body: { success: true, data: user } };
      },
    });
    expect(await screen.findByText('Failed to fetch user profile. Please try again.')).toBeInTheDocument();
    await expectToast('Failed to load user profile');
    // The form still shows what is known.
    expect(screen.getByLabelText('First name')).toHaveValue('Bella');
    await app.user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() =>
      expect(screen.queryByText('Failed to fetch user profile. Please try again.')).not.toBeInTheDocument(),
    );
    expect(api.callsTo('GET /auth/me')).toHaveLength(3);
    expect(app.location()).toBe('/account');
  });

  it('keeps a verified user on the page with the new address pending until its code is entered (issue 12)', async () => {
    let user = makeUser();
    const { app, api } = await openAccount(
      '/account',
      {
        'PUT /auth/updatedetails': ({ body }) => {
          const pendingEmail = (body as { email: string }).email;
          user = { ...user, pendingEmail };
          return {
            body: { success: true, data: user, message: authMessages.emailChangePending(pendingEmail) },
          };
        },
        'POST /auth/confirm-email': ({ body }) => {
          if ((body as { verificationCode: string }).verificationCode !== '123456') {
            return errorAnswer(400, 'Invalid verification code. 4 attempts left.', {
              verificationCode: 'Invalid verification code. 4 attempts left.',
            });
          }
          user = { ...user, email: user.pendingEmail!, pendingEmail: null };
          return { body: { success: true, user, message: authMessages.emailChanged } };
        },
      },
      () => user,
    );
    await app.user.clear(screen.getByLabelText('Email'));
    await app.user.type(screen.getByLabelText('Email'), 'bella@new.example');
    await app.user.click(saveButton());
    await expectToast(authMessages.emailChangePending('bella@new.example'));
    expect(app.location()).toBe('/account');
    const pending = await screen.findByRole('region', { name: 'New email address' });
    expect(
      within(pending).getByText(authMessages.emailChangePending('bella@new.example')),
    ).toBeInTheDocument();
    // The account keeps its address meanwhile.
    expect(screen.getByLabelText('Email')).toHaveValue('bella@example.com');

    await app.user.type(within(pending).getByLabelText('Code sent to your new email'), '654321');
    await app.user.click(within(pending).getByRole('button', { name: 'Confirm new email' }));
    expect(
      await screen.findByText('Invalid verification code. 4 attempts left.', {
        selector: '.field__error, [id$="-error"]',
      }),
    ).toBeInTheDocument();

    await app.user.clear(within(pending).getByLabelText('Code sent to your new email'));
    await app.user.type(within(pending).getByLabelText('Code sent to your new email'), '123-456');
    await app.user.click(within(pending).getByRole('button', { name: 'Confirm new email' }));
    await expectToast(authMessages.emailChanged);
    expect(api.callsTo('POST /auth/confirm-email').at(-1)!.body).toEqual({ verificationCode: '123456' });
    expect(screen.queryByRole('region', { name: 'New email address' })).not.toBeInTheDocument();
    expect(await screen.findByDisplayValue('bella@new.example')).toBeInTheDocument();
  });

  it('lets the owner keep the current email, or ask for a new code', async () => {
    let user = makeUser({ pendingEmail: 'bella@new.example' });
    const { app, api } = await openAccount(
      '/account',
      {
        'POST /auth/send-verification': { body: { success: true, message: 'sent' } },
        'DELETE /auth/pending-email': () => {
          user = { ...user, pendingEmail: null };
          return { body: { success: true, user, message: authMessages.emailChangeCancelled } };
        },
      },
      () => user,
    );
    const pending = screen.getByRole('region', { name: 'New email address' });
    await app.user.click(within(pending).getByRole('button', { name: 'Send a new code' }));
    await expectToast(screenMessages.emailCodeResent);
    expect(api.callsTo('POST /auth/send-verification')).toHaveLength(1);
    await app.user.click(within(pending).getByRole('button', { name: 'Keep my current email' }));
    await expectToast(authMessages.emailChangeCancelled);
    expect(screen.queryByRole('region', { name: 'New email address' })).not.toBeInTheDocument();
  });

  it('says so when cancelling fails', async () => {
    const { app } = await openAccount(
      '/account',
      { 'DELETE /auth/pending-email': errorAnswer(500) },
      makeUser({ pendingEmail: 'bella@new.example' }),
    );
    await app.user.click(screen.getByRole('button', { name: 'Keep my current email' }));
    await expectToast(screenMessages.cancelEmailChangeFailed);
    expect(screen.getByRole('region', { name: 'New email address' })).toBeInTheDocument();
  });

  it('checks the fields before sending', async () => {
    const { app, api } = await openAccount();
    await app.user.clear(screen.getByLabelText('First name'));
    await app.user.clear(screen.getByLabelText('Email'));
    await app.user.type(screen.getByLabelText('Email'), 'bella@');
    await app.user.click(saveButton());
    expect(await screen.findByText('First name is required')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(api.callsTo('PUT /auth/updatedetails')).toHaveLength(0);
  });

  it('shows the server reason when saving fails', async () => {
    const { app } = await openAccount('/account', {
      'PUT /auth/updatedetails': errorAnswer(409, authMessages.emailTaken, {
        email: authMessages.emailTaken,
      }),
    });
    await app.user.clear(screen.getByLabelText('Email'));
    await app.user.type(screen.getByLabelText('Email'), 'taken@example.com');
    await app.user.click(saveButton());
    await expectToast(authMessages.emailTaken);
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription(authMessages.emailTaken);
  });

  it('falls back to "Failed to update profile"', async () => {
    const { app } = await openAccount('/account', { 'PUT /auth/updatedetails': errorAnswer(500) });
    await app.user.type(screen.getByLabelText('Last name'), 'i');
    await app.user.click(saveButton());
    await expectToast('Failed to update profile');
  });
});

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

describe('a 401 from any call', () => {
  it.each([
    ['PUT /auth/updatedetails', 'Save Information'],
    ['DELETE /auth/account', 'Delete Account'],
  ])('on %s ends the session and shows /login', async (call, button) => {
    const { app } = await openAccount(button === 'Save Information' ? '/account' : '/account?tab=plan', {
      [call]: errorAnswer(401, authMessages.sessionExpired),
    });
    if (button === 'Save Information') {
      await app.user.type(screen.getByLabelText('First name'), 'x');
    } else {
      await app.user.click(screen.getByRole('button', { name: 'Delete My Account' }));
      await app.user.type(screen.getByLabelText('Type DELETE to confirm'), 'DELETE');
    }
    await app.user.click(screen.getByRole('button', { name: button }));
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(app.location()).toBe('/login');
    expect(localStorage.getItem('token')).toBeNull();
  });
});

describe('the weekly summary switch (issue 14)', () => {
  it('is on by default and turns the Monday email off, saying so', async () => {
    let user = makeUser();
    const { app, api } = await openAccount(
      '/account',
      {
        'PUT /dashboard/weekly-summary': ({ body }) => {
          user = { ...user, weeklySummaryEnabled: (body as { enabled: boolean }).enabled };
          return { body: { success: true, data: user, message: 'The weekly summary email is off.' } };
        },
      },
      () => user,
    );
    // The page reads the profile afresh when it opens; the switch is used once that answer is in.
    await waitFor(() => expect(api.callsTo('GET /auth/me').length).toBeGreaterThanOrEqual(2));
    await new Promise((resolve) => setTimeout(resolve, 0));
    const box = screen.getByRole('checkbox', { name: 'Send me the Monday summary' });
    expect(box).toBeChecked();
    await app.user.click(box);
    await expectToast('The weekly summary email is off.');
    expect(api.callsTo('PUT /dashboard/weekly-summary')[0]!.body).toEqual({ enabled: false });
    await waitFor(() =>
      expect(screen.getByRole('checkbox', { name: 'Send me the Monday summary' })).not.toBeChecked(),
    );
  });

  it('stays as it was and says why when saving fails', async () => {
    const { app } = await openAccount('/account', {
      'PUT /dashboard/weekly-summary': errorAnswer(500, 'Something went wrong'),
    });
    await app.user.click(screen.getByRole('checkbox', { name: 'Send me the Monday summary' }));
    await waitFor(() => expect(toastTexts().join(' ')).toMatch(/weekly summary|went wrong/i));
    expect(screen.getByRole('checkbox', { name: 'Send me the Monday summary' })).toBeChecked();
  });
});
