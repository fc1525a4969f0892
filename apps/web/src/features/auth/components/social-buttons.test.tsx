import { screen, waitFor, within } from '@testing-library/react';
import { authMessages, type User } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { errorAnswer, makeUser, newVerifiedUser } from '../../../test/fixtures.ts';
import { mockApi } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import {
  appleClaims,
  appleFirstSignIn,
  configWith,
  facebookAuth,
  facebookMe,
  fakeIdToken,
  finishLoading,
  googleClaims,
  injectedScripts,
  sdkSrc,
  stubApple,
  stubFacebook,
  stubGoogle,
} from '../../../test/social-sdks.ts';

const toastTexts = () => screen.queryAllByTestId('toast').map((toast) => toast.textContent);
const allConfigured = configWith({
  googleClientId: 'google-client-id',
  facebookAppId: 'facebook-app-id',
  appleClientId: 'apple-client-id',
});

const externalAnswer = (user: User, isNewUser: boolean) => ({
  body: {
    success: true,
    token: 'social-token',
    user,
    message: isNewUser ? 'Account created successfully' : 'Login successful',
    isNewUser,
  },
});

const socialUser = (provider: 'google' | 'facebook' | 'apple', providerId: string, fresh = true) =>
  (fresh ? newVerifiedUser : makeUser)({ isExternalAuth: true, provider, providerId });

async function openLogin() {
  const app = renderApp('/login');
  await screen.findByRole('heading', { name: 'Welcome back' });
  return app;
}

const storedSocialData = () => JSON.parse(sessionStorage.getItem('socialUserData') ?? 'null');

describe('social sign-in buttons without client ids (GET /config answers null)', () => {
  it.each([
    ['Google', 'Google Sign-In is not configured...'],
    ['Facebook', 'Facebook Sign-In is not configured...'],
    ['Apple', 'Apple Sign-In is not configured...'],
  ])('say %s sign-in is not configured on the login page', async (provider, message) => {
    const api = mockApi();
    const app = await openLogin();
    await app.user.click(screen.getByRole('button', { name: `Continue with ${provider}` }));
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent(message);
    expect(toast).toHaveClass('toast--warning');
    expect(app.location()).toBe('/login');
    expect(api.calls.filter((call) => call.path.startsWith('/auth'))).toHaveLength(0);
    expect(injectedScripts()).toEqual([]);
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
    expect(screen.queryByText(/before continuing with/)).not.toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Continue with Google' }));
    expect(await screen.findByTestId('toast')).toHaveTextContent('Google Sign-In is not configured...');
  });

  it('on sign-up, let Apple through without the terms box (the SPEC names only Google and Facebook)', async () => {
    mockApi();
    const app = renderApp('/register');
    await screen.findByRole('heading', { name: 'Create your account' });
    await app.user.click(screen.getByRole('button', { name: 'Continue with Apple' }));
    const region = screen.getByRole('region', { name: 'Notifications' });
    expect(await within(region).findByText('Apple Sign-In is not configured...')).toBeInTheDocument();
    expect(screen.queryByText(/before continuing with/)).not.toBeInTheDocument();
  });
});

describe('loading the provider SDKs', () => {
  it('adds only the script of the provider that has an id', async () => {
    mockApi({ 'GET /config': configWith({ googleClientId: 'google-client-id' }) });
    await openLogin();
    await waitFor(() => expect(injectedScripts()).toEqual([sdkSrc.google]));
  });

  it('adds all three on /login and /register when all are configured, once each', async () => {
    mockApi({ 'GET /config': allConfigured });
    const app = await openLogin();
    await waitFor(() => expect(injectedScripts()).toHaveLength(3));
    expect(injectedScripts()).toEqual(expect.arrayContaining([sdkSrc.google, sdkSrc.facebook, sdkSrc.apple]));

    await app.user.click(screen.getByRole('link', { name: 'Create an account' }));
    await screen.findByRole('heading', { name: 'Create your account' });
    expect(injectedScripts()).toHaveLength(3);
  });

  it('adds none on pages without the buttons', async () => {
    mockApi({ 'GET /config': allConfigured });
    renderApp('/forgot-password');
    await screen.findByRole('heading', { name: /forgot/i });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(injectedScripts()).toEqual([]);
  });

  it('initialises Facebook with the app id', async () => {
    mockApi({ 'GET /config': configWith({ facebookAppId: 'facebook-app-id' }) });
    const facebook = stubFacebook();
    await openLogin();
    await finishLoading(sdkSrc.facebook);
    await waitFor(() =>
      expect(facebook.init).toHaveBeenCalledWith(expect.objectContaining({ appId: 'facebook-app-id' })),
    );
    expect(facebook.init.mock.calls[0]![0].version).toMatch(/^v\d+\.\d+$/);
  });
});

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
    // /congratulations needs a login, so its guard sends the visitor on to log in first, remembering it.
    await waitFor(() => expect(app.router.state.location.state).toMatchObject({ from: '/congratulations' }));
    expect(storedSocialData()).toMatchObject({
      firstName: 'Bella',
      lastName: 'Rossi',
      email: 'bella@gmail.com',
      provider: 'google',
      providerId: 'google-sub-1',
    });
    expect(localStorage.getItem('token')).toBeNull();
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
