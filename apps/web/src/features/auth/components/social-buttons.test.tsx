import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import {
  configWith,
  finishLoading,
  injectedScripts,
  sdkSrc,
  stubFacebook,
} from '../../../test/social-sdks.ts';
import { allConfigured, openLogin, toastTexts } from './social-buttons.test-helpers.tsx';

const socialButtonNames = () =>
  screen.queryAllByRole('button', { name: /^Continue with / }).map((button) => button.textContent);

describe('only the configured providers are offered (issue 27)', () => {
  it.each([
    ['/login', 'Welcome back', 'or'],
    ['/register', 'Create your account', 'or sign up with'],
  ])(
    'shows no social button and no divider on %s when GET /config has no client id',
    async (path, heading, divider) => {
      const api = mockApi();
      renderApp(path);
      await screen.findByRole('heading', { name: heading });
      await waitFor(() => expect(api.callsTo('GET /config')).toHaveLength(1));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(socialButtonNames()).toEqual([]);
      expect(screen.queryByText(divider, { exact: true })).not.toBeInTheDocument();
      expect(injectedScripts()).toEqual([]);
    },
  );

  it('shows only Google when only Google has a client id, under the divider', async () => {
    mockApi({ 'GET /config': configWith({ googleClientId: 'google-client-id' }) });
    await openLogin();
    await waitFor(() => expect(socialButtonNames()).toEqual(['Continue with Google']));
    expect(screen.getByText('or', { exact: true })).toBeInTheDocument();
  });

  it('shows Facebook and Apple without Google when only they are configured', async () => {
    mockApi({
      'GET /config': configWith({ facebookAppId: 'facebook-app-id', appleClientId: 'apple-client-id' }),
    });
    renderApp('/register');
    await screen.findByRole('heading', { name: 'Create your account' });
    await waitFor(() =>
      expect(socialButtonNames()).toEqual(['Continue with Facebook', 'Continue with Apple']),
    );
    expect(screen.getByText('or sign up with', { exact: true })).toBeInTheDocument();
  });

  it('shows no social button while GET /config has not answered', async () => {
    mockApi({ 'GET /config': 'pending' });
    await openLogin();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(socialButtonNames()).toEqual([]);
  });

  it('on sign-up, wants the terms accepted before Google or Facebook, and lets Apple through', async () => {
    mockApi({ 'GET /config': allConfigured });
    const app = renderApp('/register');
    await screen.findByRole('heading', { name: 'Create your account' });
    const terms = screen.getByRole('checkbox', { name: 'I accept the Terms of Service' });

    await app.user.click(await screen.findByRole('button', { name: 'Continue with Google' }));
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
    await app.user.click(screen.getByRole('button', { name: 'Continue with Apple' }));
    expect(screen.queryByText(/before continuing with/)).not.toBeInTheDocument();
    expect(toastTexts()).toEqual([]);
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
