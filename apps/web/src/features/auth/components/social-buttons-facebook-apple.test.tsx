import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorAnswer } from '../../../test/fixtures.ts';
import { mockApi } from '../../../test/mock-api.ts';
import {
  appleClaims,
  appleFirstSignIn,
  configWith,
  facebookAuth,
  facebookMe,
  fakeIdToken,
  finishLoading,
  sdkSrc,
  stubApple,
  stubFacebook,
} from '../../../test/social-sdks.ts';
import {
  externalAnswer,
  openLogin,
  socialUser,
  storedSocialData,
  toastTexts,
} from './social-buttons.test-helpers.tsx';

describe('Facebook', () => {
  async function openWithFacebook(
    handlers: Parameters<typeof mockApi>[0] = {},
    facebookStub: () => ReturnType<typeof stubFacebook> = () => stubFacebook(),
  ) {
    const api = mockApi({ 'GET /config': configWith({ facebookAppId: 'facebook-app-id' }), ...handlers });
    const facebook = facebookStub();
    const app = await openLogin();
    await finishLoading(sdkSrc.facebook);
    const button = screen.getByRole('button', { name: 'Continue with Facebook' });
    await waitFor(() => expect(button).not.toHaveAttribute('aria-busy'));
    return { api, facebook, app, button };
  }

  it('asks for public_profile and email, reads /me and sends the access token', async () => {
    const { api, app, facebook, button } = await openWithFacebook({
      'POST /auth/external': externalAnswer(socialUser('facebook', 'fb-user-1'), true),
    });
    await app.user.click(button);
    expect(await screen.findByRole('heading', { name: 'Congratulations, Bella!' })).toBeInTheDocument();
    expect(facebook.login.mock.calls[0]![1]).toMatchObject({ scope: 'public_profile,email' });
    expect(facebook.api).toHaveBeenCalledWith(
      '/me',
      { fields: 'id,first_name,last_name,email' },
      expect.any(Function),
    );
    expect(api.callsTo('POST /auth/external')[0]!.body).toEqual({
      firstName: 'Bella',
      lastName: 'Rossi',
      email: 'bella@facebook.test',
      provider: 'facebook',
      providerId: 'fb-user-1',
      accessToken: facebookAuth.accessToken,
    });
    expect(storedSocialData()).toMatchObject({ provider: 'facebook', providerId: 'fb-user-1' });
  });

  it('sends a returning user on to /account', async () => {
    const { app, button } = await openWithFacebook({
      'POST /auth/external': externalAnswer(socialUser('facebook', 'fb-user-1', false), false),
    });
    await app.user.click(button);
    expect(await screen.findByRole('heading', { name: 'My Account' })).toBeInTheDocument();
  });

  it('wants the email permission before asking the server', async () => {
    const { api, app, button } = await openWithFacebook({}, () =>
      stubFacebook(undefined, { ...facebookMe, email: undefined }),
    );
    await app.user.click(button);
    expect(await screen.findByTestId('toast')).toHaveTextContent(
      'Email is required. Please check your Google/Facebook permissions.',
    );
    expect(api.callsTo('POST /auth/external')).toHaveLength(0);
  });

  it('SPEC §8: an existing user whose Facebook login fails goes to /post-login-onboarding with the stored data', async () => {
    const refusal =
      'An account with this email already exists but its email is not verified. Log in with your password and verify your email, then continue with Facebook.';
    const { app, button } = await openWithFacebook({ 'POST /auth/external': errorAnswer(409, refusal) });
    await app.user.click(button);
    await waitFor(() => expect(app.location()).toBe('/post-login-onboarding'));
    expect(storedSocialData()).toMatchObject({
      email: 'bella@facebook.test',
      provider: 'facebook',
      providerId: 'fb-user-1',
    });
    expect(await screen.findByTestId('toast')).toHaveTextContent(refusal);
    // Not "create my account" again: the account exists, so the way back in is its password.
    expect(await screen.findByRole('heading', { name: 'You already have an account' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Create my account/ })).toBeNull();
    await app.user.click(screen.getByRole('button', { name: 'Forgot your password?' }));
    await waitFor(() => expect(app.location()).toBe('/forgot-password'));
    expect(screen.getByLabelText(/^Email/)).toHaveValue('bella@facebook.test');
  });

  it('says "Facebook sign-in failed" when the server gives no reason', async () => {
    const { app, button } = await openWithFacebook({ 'POST /auth/external': errorAnswer(500) });
    await app.user.click(button);
    expect(await screen.findByTestId('toast')).toHaveTextContent(
      'Facebook sign-in failed. Please try again.',
    );
    expect(button).not.toHaveAttribute('aria-busy');
  });

  it('says nothing when the owner closes the Facebook window', async () => {
    const { api, app, button } = await openWithFacebook({}, () =>
      stubFacebook({ status: 'unknown', authResponse: null }),
    );
    await app.user.click(button);
    expect(button).not.toHaveAttribute('aria-busy');
    expect(toastTexts()).toEqual([]);
    expect(api.callsTo('POST /auth/external')).toHaveLength(0);
  });

  it('says "Facebook sign-in failed" when the SDK cannot be loaded', async () => {
    mockApi({ 'GET /config': configWith({ facebookAppId: 'facebook-app-id' }) });
    const app = await openLogin();
    await finishLoading(sdkSrc.facebook, 'error');
    const button = screen.getByRole('button', { name: 'Continue with Facebook' });
    await waitFor(() => expect(button).not.toHaveAttribute('aria-busy'));
    await app.user.click(button);
    expect(await screen.findByTestId('toast')).toHaveTextContent(
      'Facebook sign-in failed. Please try again.',
    );
  });
});

describe('Apple', () => {
  async function openWithApple(
    handlers: Parameters<typeof mockApi>[0],
    apple: () => ReturnType<typeof stubApple>,
  ) {
    const api = mockApi({ 'GET /config': configWith({ appleClientId: 'apple-client-id' }), ...handlers });
    const sdk = apple();
    const app = await openLogin();
    await finishLoading(sdkSrc.apple);
    const button = screen.getByRole('button', { name: 'Continue with Apple' });
    await waitFor(() => expect(button).not.toHaveAttribute('aria-busy'));
    return { api, apple: sdk, app, button };
  }

  it('starts Apple with a fresh nonce and sends the identity token with it', async () => {
    const { api, apple, app, button } = await openWithApple(
      { 'POST /auth/external': externalAnswer(socialUser('apple', 'apple-sub-1', false), false) },
      () => stubApple(appleFirstSignIn),
    );
    await app.user.click(button);
    expect(await screen.findByRole('heading', { name: 'My Account' })).toBeInTheDocument();

    const init = apple.init.mock.calls[0]![0] as Record<string, unknown>;
    expect(init).toMatchObject({
      clientId: 'apple-client-id',
      scope: 'name email',
      redirectURI: `${window.location.origin}/login`,
      usePopup: true,
    });
    expect(init.nonce).toMatch(/^[0-9a-f]{48}$/);
    expect(api.callsTo('POST /auth/external')[0]!.body).toEqual({
      firstName: 'Bella',
      lastName: 'Rossi',
      email: appleClaims.email,
      provider: 'apple',
      providerId: 'apple-sub-1',
      idToken: fakeIdToken({ ...appleClaims, nonce: init.nonce }),
      nonce: init.nonce,
    });
  });

  it('uses a new nonce for every attempt', async () => {
    const { apple, app, button } = await openWithApple({ 'POST /auth/external': errorAnswer(500) }, () =>
      stubApple(appleFirstSignIn),
    );
    await app.user.click(button);
    await screen.findByText('Apple sign-in failed. Please try again.');
    await app.user.click(button);
    await waitFor(() => expect(apple.init).toHaveBeenCalledTimes(2));
    const [first, second] = apple.init.mock.calls.map((call) => (call[0] as { nonce: string }).nonce);
    expect(first).not.toBe(second);
  });

  it('says "No ID token received from Apple" when the answer has none', async () => {
    const { api, app, button } = await openWithApple({}, () =>
      stubApple(() => ({ authorization: { code: 'apple-code' } })),
    );
    await app.user.click(button);
    expect(await screen.findByTestId('toast')).toHaveTextContent('No ID token received from Apple');
    expect(api.callsTo('POST /auth/external')).toHaveLength(0);
  });

  it('goes to /post-login-onboarding with the data and proof stored when the server wants a phone number', async () => {
    const { app, apple, button } = await openWithApple(
      {
        'POST /auth/external': errorAnswer(400, 'Phone number is required to finish signing up with Apple.', {
          phoneNumber: 'Phone number is required to finish signing up with Apple.',
        }),
      },
      () => stubApple(appleFirstSignIn),
    );
    await app.user.click(button);
    expect(await screen.findByRole('heading', { name: 'Finish signing up with Apple' })).toBeInTheDocument();
    expect(app.location()).toBe('/post-login-onboarding');
    const nonce = (apple.init.mock.calls[0]![0] as { nonce: string }).nonce;
    expect(storedSocialData()).toEqual({
      firstName: 'Bella',
      lastName: 'Rossi',
      email: appleClaims.email,
      provider: 'apple',
      providerId: 'apple-sub-1',
      idToken: fakeIdToken({ ...appleClaims, nonce }),
      nonce,
    });
    expect(localStorage.getItem('token')).toBeNull();
    expect(toastTexts()).toEqual([]);
  });

  it('says "Apple sign-in failed" when Apple fails, and nothing when the owner closes its window', async () => {
    const failing = await openWithApple({}, () => stubApple(() => ({ error: 'invalid_client' }), true));
    await failing.app.user.click(failing.button);
    expect(await screen.findByTestId('toast')).toHaveTextContent('Apple sign-in failed. Please try again.');
    failing.app.unmount();

    const closed = await openWithApple({}, () => stubApple(() => ({ error: 'popup_closed_by_user' }), true));
    await closed.app.user.click(closed.button);
    await waitFor(() => expect(closed.button).not.toHaveAttribute('aria-busy'));
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument();
  });
});
