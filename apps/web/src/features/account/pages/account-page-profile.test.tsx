import { screen, waitFor, within } from '@testing-library/react';
import { authMessages, screenMessages, type User } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { errorAnswer, makeUser } from '../../../test/fixtures.ts';
import { expectToast, openAccount } from './account-page.test-helpers.tsx';

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
