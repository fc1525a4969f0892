import { screen, waitFor } from '@testing-library/react';
import { authMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { errorAnswer } from '../../../test/fixtures.ts';
import { mockApi } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import {
  configWith,
  fakeIdToken,
  finishLoading,
  googleClaims,
  sdkSrc,
  stubGoogle,
} from '../../../test/social-sdks.ts';
import { externalAnswer, openLogin, socialUser, storedSocialData } from './social-buttons.test-helpers.tsx';

describe('Google', () => {
  async function openWithGoogle(handlers: Parameters<typeof mockApi>[0] = {}) {
    const api = mockApi({ 'GET /config': configWith({ googleClientId: 'google-client-id' }), ...handlers });
    const google = stubGoogle();
    const app = await openLogin();
    await finishLoading(sdkSrc.google);
    const googleButton = await screen.findByRole('button', { name: "Google's own button" });
    return { api, google, app, googleButton };
  }

  it("draws Google's button for our client id in place of ours", async () => {
    const { google } = await openWithGoogle();
    expect(google.initialize).toHaveBeenCalledWith(
      expect.objectContaining({ client_id: 'google-client-id', ux_mode: 'popup' }),
    );
    expect(google.renderButton.mock.calls[0]![1]).toMatchObject({ text: 'continue_with', theme: 'outline' });
    expect(screen.queryByRole('button', { name: 'Continue with Google' })).not.toBeInTheDocument();
  });

  it('signs up a new user: sends the profile and the ID token, keeps socialUserData, goes to /congratulations', async () => {
    const user = socialUser('google', 'google-sub-1');
    const { api, app, googleButton } = await openWithGoogle({
      'POST /auth/external': externalAnswer(user, true),
    });
    await app.user.click(googleButton);

    expect(await screen.findByRole('heading', { name: 'Congratulations, Bella!' })).toBeInTheDocument();
    expect(app.location()).toBe('/congratulations');
    expect(api.callsTo('POST /auth/external')[0]!.body).toEqual({
      firstName: 'Bella',
      lastName: 'Rossi',
      email: 'bella@gmail.com',
      provider: 'google',
      providerId: 'google-sub-1',
      idToken: fakeIdToken(googleClaims),
    });
    expect(localStorage.getItem('token')).toBe('social-token');
    expect(storedSocialData()).toEqual({
      firstName: 'Bella',
      lastName: 'Rossi',
      email: 'bella@example.com',
      provider: 'google',
      providerId: 'google-sub-1',
    });
  });

  it('sends a returning user on to /account', async () => {
    const { app, googleButton } = await openWithGoogle({
      'POST /auth/external': externalAnswer(socialUser('google', 'google-sub-1', false), false),
    });
    await app.user.click(googleButton);
    expect(await screen.findByRole('heading', { name: 'My Account' })).toBeInTheDocument();
    expect(app.location()).toBe('/account');
    expect(localStorage.getItem('token')).toBe('social-token');
    expect(storedSocialData()).toBeNull();
  });

  it('shows the server reason when it refuses', async () => {
    const { app, googleButton } = await openWithGoogle({
      'POST /auth/external': errorAnswer(401, 'Google sign-in could not be verified: the token has expired.'),
    });
    await app.user.click(googleButton);
    expect(await screen.findByTestId('toast')).toHaveTextContent(
      'Google sign-in could not be verified: the token has expired.',
    );
    expect(app.location()).toBe('/login');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('SPEC §8: an existing user whose Google login fails goes to /congratulations with the stored data', async () => {
    const refusal = 'An account with this email is already linked to a different Google account.';
    const { app, googleButton } = await openWithGoogle({
      'POST /auth/external': errorAnswer(409, refusal),
    });
    await app.user.click(googleButton);
    expect(await screen.findByTestId('toast')).toHaveTextContent(refusal);
    // The stored profile does its job there: whose account it is, and the way back in (its password).
    await waitFor(() => expect(app.location()).toBe('/congratulations'));
    expect(await screen.findByRole('heading', { name: 'You already have an account' })).toBeInTheDocument();
    const identity = screen.getByRole('region', { name: 'Your Google account' });
    expect(identity).toHaveTextContent('Bella Rossi');
    expect(identity).toHaveTextContent('bella@gmail.com');
    expect(identity.parentElement).toHaveTextContent(refusal); // stays after the toast goes
    expect(storedSocialData()).toMatchObject({
      firstName: 'Bella',
      lastName: 'Rossi',
      email: 'bella@gmail.com',
      provider: 'google',
      providerId: 'google-sub-1',
    });
    expect(localStorage.getItem('token')).toBeNull();
    // Logging in with the password starts from that email; the stored profile has done its job.
    await app.user.click(screen.getByRole('button', { name: 'Log in with password' }));
    await waitFor(() => expect(app.location()).toBe('/login'));
    expect(screen.getByLabelText(/^Email/)).toHaveValue('bella@gmail.com');
    expect(storedSocialData()).toBeNull();
  });

  it('says "Google sign-in failed" when the server gives no reason', async () => {
    const { app, googleButton } = await openWithGoogle({ 'POST /auth/external': errorAnswer(500) });
    await app.user.click(googleButton);
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent('Google sign-in failed. Please try again.');
    expect(toast).toHaveClass('toast--error');
  });

  it('says the server cannot be reached when nothing answers', async () => {
    const { app, googleButton } = await openWithGoogle({ 'POST /auth/external': 'network-error' });
    await app.user.click(googleButton);
    expect(await screen.findByTestId('toast')).toHaveTextContent(authMessages.noResponse);
  });

  it('wants an email before asking the server', async () => {
    const { api, app, google, googleButton } = await openWithGoogle();
    google.answerWith(fakeIdToken({ ...googleClaims, email: undefined }));
    await app.user.click(googleButton);
    expect(await screen.findByTestId('toast')).toHaveTextContent(
      'Email is required. Please check your Google/Facebook permissions.',
    );
    expect(api.callsTo('POST /auth/external')).toHaveLength(0);
  });

  it('says sign-in failed when Google answers without a credential', async () => {
    const { api, app, google, googleButton } = await openWithGoogle();
    google.answerWith(undefined);
    await app.user.click(googleButton);
    expect(await screen.findByTestId('toast')).toHaveTextContent('Google sign-in failed. Please try again.');
    expect(api.callsTo('POST /auth/external')).toHaveLength(0);
  });

  it.each([
    ['the script cannot be loaded', 'error' as const, true],
    ['the script loads but Google Identity Services is not there', 'load' as const, false],
  ])('says Google login could not start when %s', async (_, outcome, stub) => {
    mockApi({ 'GET /config': configWith({ googleClientId: 'google-client-id' }) });
    if (stub) stubGoogle();
    const app = await openLogin();
    await finishLoading(sdkSrc.google, outcome);
    const ours = screen.getByRole('button', { name: 'Continue with Google' });
    await waitFor(() => expect(ours).not.toHaveAttribute('aria-busy'));
    await app.user.click(ours);
    expect(await screen.findByTestId('toast')).toHaveTextContent(
      'Failed to initiate Google login. Please try again.',
    );
  });

  it('on sign-up, shows Google’s button only once the terms box is ticked', async () => {
    const api = mockApi({
      'GET /config': configWith({ googleClientId: 'google-client-id' }),
      'POST /auth/external': externalAnswer(socialUser('google', 'google-sub-1'), true),
    });
    stubGoogle();
    const app = renderApp('/register');
    await screen.findByRole('heading', { name: 'Create your account' });
    await finishLoading(sdkSrc.google);
    await app.user.click(await screen.findByRole('button', { name: 'Continue with Google' }));
    expect(
      await screen.findByText('You must accept the Terms of Service before continuing with Google'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: "Google's own button" })).not.toBeInTheDocument();

    await app.user.click(screen.getByRole('checkbox', { name: 'I accept the Terms of Service' }));
    await app.user.click(await screen.findByRole('button', { name: "Google's own button" }));
    expect(await screen.findByRole('heading', { name: 'Congratulations, Bella!' })).toBeInTheDocument();
    expect(api.callsTo('POST /auth/external')).toHaveLength(1);
  });
});
