import { screen } from '@testing-library/react';
import { authMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { errorAnswer, makeUser, newVerifiedUser, unverifiedUser } from '../../../test/fixtures.ts';
import { mockApi } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

const loginAnswer = (user = makeUser()) => ({
  body: { success: true, token: 'fresh-token', user, message: authMessages.loginSuccessful },
});

async function openLogin(path = '/login') {
  const app = renderApp(path);
  await screen.findByRole('heading', { name: 'Welcome back' });
  return app;
}

async function logIn(app: ReturnType<typeof renderApp>, email: string, password: string) {
  if (email) await app.user.type(screen.getByLabelText('Email'), email);
  if (password) await app.user.type(screen.getByLabelText('Password'), password);
  await app.user.click(screen.getByRole('button', { name: 'Log in' }));
}

describe('login page', () => {
  it('requires an email and a password', async () => {
    const api = mockApi();
    const app = await openLogin();
    await logIn(app, '', '');
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Email is required');
    expect(api.callsTo('POST /auth/login')).toHaveLength(0);
  });

  it('requires a valid email address', async () => {
    const api = mockApi();
    const app = await openLogin();
    await logIn(app, 'bella@', 'secret1');
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.queryByText('Password is required')).not.toBeInTheDocument();
    expect(api.callsTo('POST /auth/login')).toHaveLength(0);
  });

  it('shows the server message for a wrong password and stays logged out', async () => {
    mockApi({ 'POST /auth/login': errorAnswer(401, authMessages.invalidCredentials) });
    const app = await openLogin();
    await logIn(app, 'bella@example.com', 'wrong-password');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Invalid email or password. Please try again.',
    );
    expect(app.location()).toBe('/login');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('falls back to the SPEC words for a 401 and a 404 without a message', async () => {
    mockApi({ 'POST /auth/login': errorAnswer(404) });
    const app = await openLogin();
    await logIn(app, 'nobody@example.com', 'secret1');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Account not found. Please check your email or register.',
    );

    mockApi({ 'POST /auth/login': errorAnswer(401) });
    await app.user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Invalid email or password. Please try again.')).toBeInTheDocument();
  });

  it('shows the too-many-attempts message of a 429', async () => {
    mockApi({
      'POST /auth/login': {
        ...errorAnswer(429, authMessages.tooManyAttempts(15)),
        headers: { 'Retry-After': '900' },
      },
    });
    const app = await openLogin();
    await logIn(app, 'bella@example.com', 'secret1');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many attempts. Please try again in 15 minutes.',
    );
    expect(app.location()).toBe('/login');
  });

  it('says the server cannot be reached when nothing answers', async () => {
    mockApi({ 'POST /auth/login': 'network-error' });
    const app = await openLogin();
    await logIn(app, 'bella@example.com', 'secret1');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'No response from server. Please check your internet connection and try again.',
    );
  });

  it('stores the token and lets the guards send a full user to /account', async () => {
    const api = mockApi({ 'POST /auth/login': loginAnswer() });
    const app = await openLogin();
    await logIn(app, ' bella@example.com ', 'secret1');
    expect(await screen.findByRole('heading', { name: 'My Account' })).toBeInTheDocument();
    expect(app.location()).toBe('/account');
    expect(localStorage.getItem('token')).toBe('fresh-token');
    expect(api.callsTo('POST /auth/login')[0]!.body).toEqual({
      email: 'bella@example.com',
      password: 'secret1',
    });
  });

  it.each([
    ['an unverified user', unverifiedUser(), '/verify-account', 'Verify your email'],
    ['a user without business details', newVerifiedUser(), '/congratulations', 'Congratulations, Bella!'],
  ])('sends %s to the next onboarding step', async (_, user, path, heading) => {
    mockApi({ 'POST /auth/login': loginAnswer(user) });
    const app = await openLogin();
    await logIn(app, 'bella@example.com', 'secret1');
    expect(await screen.findByRole('heading', { name: heading })).toBeInTheDocument();
    expect(app.location()).toBe(path);
  });

  it('returns to the page the visitor was heading for', async () => {
    mockApi({ 'POST /auth/login': loginAnswer() });
    const app = renderApp('/toast-demo');
    await screen.findByRole('heading', { name: 'Welcome back' });
    expect(app.location()).toBe('/login');
    await logIn(app, 'bella@example.com', 'secret1');
    expect(await screen.findByRole('heading', { name: 'Toast demo' })).toBeInTheDocument();
    expect(app.location()).toBe('/toast-demo');
  });

  it('shows a visitor the logo once, above the card (no app header before sign-in)', async () => {
    mockApi();
    await openLogin();
    expect(screen.getAllByText('Waitlist & Text')).toHaveLength(1);
    expect(screen.queryByRole('link', { name: 'Waitlist & Text home' })).not.toBeInTheDocument();
  });

  it('links to registration and the forgotten-password form', async () => {
    mockApi();
    const app = await openLogin();
    await app.user.click(screen.getByRole('link', { name: 'Forgot password?' }));
    expect(app.location()).toBe('/forgot-password');
    await app.user.click(await screen.findByRole('link', { name: 'Back to log in' }));
    await app.user.click(await screen.findByRole('link', { name: 'Create an account' }));
    expect(app.location()).toBe('/register');
  });
});
