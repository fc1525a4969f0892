import { screen } from '@testing-library/react';
import { authMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { errorAnswer, unverifiedUser } from '../../../test/fixtures.ts';
import { mockApi } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

type Form = {
  firstName?: string;
  lastName?: string;
  email?: string;
  password?: string;
  confirmPassword?: string;
  acceptTerms?: boolean;
};

const complete: Required<Form> = {
  firstName: 'Bella',
  lastName: 'Rossi',
  email: 'bella@example.com',
  password: 'secret1',
  confirmPassword: 'secret1',
  acceptTerms: true,
};

async function openRegister() {
  const app = renderApp('/register');
  await screen.findByRole('heading', { name: 'Create your account' });
  return app;
}

async function submit(app: ReturnType<typeof renderApp>, form: Form) {
  const fields: [keyof Form, string][] = [
    ['firstName', 'First name'],
    ['lastName', 'Last name'],
    ['email', 'Email'],
    ['password', 'Password'],
    ['confirmPassword', 'Confirm password'],
  ];
  for (const [key, label] of fields) {
    const value = form[key];
    if (typeof value === 'string' && value) await app.user.type(screen.getByLabelText(label), value);
  }
  if (form.acceptTerms) await app.user.click(screen.getByRole('checkbox', { name: /Terms of Service/ }));
  await app.user.click(screen.getByRole('button', { name: 'Create account' }));
}

describe('register page', () => {
  it('names every missing field in the SPEC words', async () => {
    const api = mockApi();
    const app = await openRegister();
    await submit(app, {});
    expect(await screen.findByText('First name is required')).toBeInTheDocument();
    expect(screen.getByText('Last name is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByText('Please confirm your password')).toBeInTheDocument();
    expect(screen.getByText('You must accept the Terms of Service')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: /Terms of Service/ })).toHaveAccessibleDescription(
      'You must accept the Terms of Service',
    );
    expect(api.callsTo('POST /auth/register')).toHaveLength(0);
  });

  it('treats names of spaces only as missing', async () => {
    mockApi();
    const app = await openRegister();
    await submit(app, { ...complete, firstName: '   ', lastName: '  ' });
    expect(await screen.findByText('First name is required')).toBeInTheDocument();
    expect(screen.getByText('Last name is required')).toBeInTheDocument();
  });

  it('rejects a malformed email, a short password and a confirmation that does not match', async () => {
    const api = mockApi();
    const app = await openRegister();
    await submit(app, { ...complete, email: 'bella@example', password: 'abc12', confirmPassword: 'abc13' });
    expect(await screen.findByText('Invalid email format')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    expect(api.callsTo('POST /auth/register')).toHaveLength(0);
  });

  it('says the passwords do not match even when both are long enough', async () => {
    mockApi();
    const app = await openRegister();
    await submit(app, { ...complete, confirmPassword: 'secret2' });
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(screen.queryByText('Password must be at least 6 characters')).not.toBeInTheDocument();
  });

  it('registers, keeps the token under "token" and goes to /verify-account', async () => {
    const user = unverifiedUser();
    const api = mockApi({
      'POST /auth/register': {
        status: 201,
        body: { success: true, token: 'new-token', user, message: authMessages.registered },
      },
      'GET /auth/me': { body: { success: true, data: user } },
    });
    const app = await openRegister();
    await submit(app, complete);
    expect(await screen.findByRole('heading', { name: 'Verify your email' })).toBeInTheDocument();
    expect(app.location()).toBe('/verify-account');
    expect(localStorage.getItem('token')).toBe('new-token');
    // The confirmation and the terms box never leave the browser.
    expect(api.callsTo('POST /auth/register')[0]!.body).toEqual({
      firstName: 'Bella',
      lastName: 'Rossi',
      email: 'bella@example.com',
      password: 'secret1',
    });
  });

  it('shows the server message and puts its field errors under the fields', async () => {
    mockApi({
      'POST /auth/register': errorAnswer(409, authMessages.emailTaken, { email: authMessages.emailTaken }),
    });
    const app = await openRegister();
    await submit(app, complete);
    expect(await screen.findByRole('alert')).toHaveTextContent(authMessages.emailTaken);
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription(authMessages.emailTaken);
    expect(app.location()).toBe('/register');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('falls back to "Registration failed" without a server message, and explains a lost connection', async () => {
    mockApi({ 'POST /auth/register': errorAnswer(500) });
    const app = await openRegister();
    await submit(app, complete);
    expect(await screen.findByRole('alert')).toHaveTextContent('Registration failed. Please try again.');

    mockApi({ 'POST /auth/register': 'network-error' });
    await app.user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(
      await screen.findByText(
        'Unable to connect to the server. Please check your internet connection and try again.',
      ),
    ).toBeInTheDocument();
  });

  it('opens and closes the terms of service', async () => {
    mockApi();
    const app = await openRegister();
    await app.user.click(screen.getByRole('button', { name: 'Read the terms' }));
    const dialog = screen.getByRole('dialog', { name: 'Terms of Service' });
    expect(dialog).toBeInTheDocument();
    await app.user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
