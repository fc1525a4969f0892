import { screen } from '@testing-library/react';
import type { User } from '@waitlist/contract';
import { makeUser, newVerifiedUser } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { configWith } from '../../../test/social-sdks.ts';

export const toastTexts = () => screen.queryAllByTestId('toast').map((toast) => toast.textContent);
export const allConfigured = configWith({
  googleClientId: 'google-client-id',
  facebookAppId: 'facebook-app-id',
  appleClientId: 'apple-client-id',
});

export const externalAnswer = (user: User, isNewUser: boolean) => ({
  body: {
    success: true,
    token: 'social-token',
    user,
    message: isNewUser ? 'Account created successfully' : 'Login successful',
    isNewUser,
  },
});

export const socialUser = (provider: 'google' | 'facebook' | 'apple', providerId: string, fresh = true) =>
  (fresh ? newVerifiedUser : makeUser)({ isExternalAuth: true, provider, providerId });

export async function openLogin() {
  const app = renderApp('/login');
  await screen.findByRole('heading', { name: 'Welcome back' });
  return app;
}

export const storedSocialData = () => JSON.parse(sessionStorage.getItem('socialUserData') ?? 'null');
