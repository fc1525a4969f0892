import { screen, waitFor, within } from '@testing-library/react';
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
