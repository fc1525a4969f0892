import { screen } from '@testing-library/react';
import { authMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { errorAnswer, makeUser, newVerifiedUser, unverifiedUser } from '../test/fixtures.ts';
import { mockApi, mockSignedIn } from '../test/mock-api.ts';
import { renderApp } from '../test/render-app.tsx';

/** Opens a path as a returning user and waits for where the guards settle. */
async function landing(path: string, heading: string, user = makeUser()) {
  mockSignedIn(user);
  const app = renderApp(path, { token: 'tok' });
  await screen.findByRole('heading', { level: 1, name: heading });
  return app;
}

describe('guards (SPEC §2, in order)', () => {
  it('shows Loading while the current user is being fetched', async () => {
    mockApi({ 'GET /auth/me': 'pending' });
    renderApp('/account', { token: 'tok' });
    expect(await screen.findByRole('status')).toHaveTextContent('Loading');
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
  });

  it('also shows Loading on the visitor pages until it knows who is there', async () => {
    mockApi({ 'GET /auth/me': 'pending' });
    renderApp('/login', { token: 'tok' });
    expect(await screen.findByRole('status')).toHaveTextContent('Loading');
    expect(screen.queryByRole('heading', { name: 'Welcome back' })).not.toBeInTheDocument();
  });

  it.each(['/account', '/toast-demo', '/admin', '/verify-account', '/congratulations'])(
    'sends a visitor from %s to /login',
    async (path) => {
      const api = mockApi();
      const app = renderApp(path);
      await screen.findByRole('heading', { name: 'Welcome back' });
      expect(app.location()).toBe('/login');
      expect(api.callsTo('GET /auth/me')).toHaveLength(0);
      expect(screen.queryByRole('button', { name: 'Account' })).not.toBeInTheDocument();
    },
  );

  it('logs out and goes to /login when the stored token is no longer accepted', async () => {
    mockApi({ 'GET /auth/me': errorAnswer(401, authMessages.sessionExpired) });
    const app = renderApp('/account', { token: 'stale' });
    await screen.findByRole('heading', { name: 'Welcome back' });
    expect(app.location()).toBe('/login');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('treats an answer of success:false as logged out too', async () => {
    mockApi({ 'GET /auth/me': { body: { success: false, message: 'No user' } } });
    const app = renderApp('/account', { token: 'odd' });
    await screen.findByRole('heading', { name: 'Welcome back' });
    expect(app.location()).toBe('/login');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it.each(['/account', '/congratulations', '/congratulations/business-details', '/admin'])(
    'sends an unverified user from %s to /verify-account',
    async (path) => {
      const app = await landing(path, 'Verify your email', unverifiedUser({ admin: true }));
      expect(app.location()).toBe('/verify-account');
    },
  );

  it.each([null, 'rejected', 'pending'])(
    'sends a verified user whose business verification is %s to /congratulations',
    async (status) => {
      const user = newVerifiedUser({ businessVerification: { status, businessPhone: '' } });
      const app = await landing('/account', 'Congratulations, Bella!', user);
      expect(app.location()).toBe('/congratulations');
    },
  );

  it.each(['submitted', 'approved'])('lets a user whose business is %s into /account', async (status) => {
    const user = makeUser({ businessVerification: { status, businessPhone: '5551234567' } });
    const app = await landing('/account', 'My Account', user);
    expect(app.location()).toBe('/account');
  });

  it('lets a verified user without business details reach the onboarding steps', async () => {
    const app = await landing(
      '/congratulations/business-details',
      'Tell us about your business',
      newVerifiedUser(),
    );
    expect(app.location()).toBe('/congratulations/business-details');
  });

  it('sends a non-admin from /admin to /, which is /account', async () => {
    const app = await landing('/admin', 'My Account', makeUser({ admin: false }));
    expect(app.location()).toBe('/account');
  });

  it('lets an admin into /admin', async () => {
    const app = await landing('/admin', 'Admin', makeUser({ admin: true }));
    expect(app.location()).toBe('/admin');
  });

  it('but still sends an unfinished admin through onboarding first', async () => {
    const app = await landing('/admin', 'Congratulations, Bella!', newVerifiedUser({ admin: true }));
    expect(app.location()).toBe('/congratulations');
  });

  it('sends a signed-in owner from / to /account (a visitor sees the product page instead, issue 27)', async () => {
    const app = await landing('/', 'My Account');
    expect(app.location()).toBe('/account');
  });

  it.each(['/login', '/register', '/forgot-password'])(
    'sends a logged-in user from %s to /, then on by the guards',
    async (path) => {
      const app = await landing(path, 'My Account');
      expect(app.location()).toBe('/account');
    },
  );

  it('sends an unverified logged-in user from /login on to /verify-account', async () => {
    const app = await landing('/login', 'Verify your email', unverifiedUser());
    expect(app.location()).toBe('/verify-account');
  });

  it('shows the 404 page for an unknown route, with a way back', async () => {
    mockApi();
    const app = renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(app.location()).toBe('/no/such/page');
    await app.user.click(screen.getByRole('link', { name: 'Go to log in' }));
    expect(app.location()).toBe('/login');
  });

  it('shows the 404 page to a logged-in user too, with the header and a link to the account', async () => {
    mockSignedIn(makeUser());
    const app = renderApp('/nope', { token: 'tok' });
    expect(await screen.findByRole('button', { name: 'Account' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    await app.user.click(screen.getByRole('link', { name: 'Go to my account' }));
    expect(app.location()).toBe('/account');
  });
});
