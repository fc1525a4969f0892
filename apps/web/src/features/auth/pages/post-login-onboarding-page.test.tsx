import { screen, within } from '@testing-library/react';
import type { SocialUserData, User } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { errorAnswer, makeUser, newVerifiedUser } from '../../../test/fixtures.ts';
import { mockApi } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

const appleData: SocialUserData = {
  firstName: 'Bella',
  lastName: 'Rossi',
  email: 'bella@privaterelay.appleid.com',
  provider: 'apple',
  providerId: 'apple-sub-1',
  idToken: 'apple.identity.token',
  nonce: 'nonce-1',
};

const externalAnswer = (user: User, isNewUser: boolean) => ({
  body: { success: true, token: 'social-token', user, message: 'Account created successfully', isNewUser },
});

async function openWith(data: SocialUserData | null, handlers: Parameters<typeof mockApi>[0] = {}) {
  if (data) sessionStorage.setItem('socialUserData', JSON.stringify(data));
  const api = mockApi(handlers);
  const app = renderApp('/post-login-onboarding');
  return { api, app };
}

const submit = (app: ReturnType<typeof renderApp>) =>
  app.user.click(screen.getByRole('button', { name: 'Create my account' }));

describe('/post-login-onboarding', () => {
  it('sends a visitor with no social data to /login', async () => {
    const { app } = await openWith(null);
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(app.location()).toBe('/login');
  });

  it('shows who Apple says this is and asks for the phone number, focused', async () => {
    await openWith(appleData);
    expect(await screen.findByRole('heading', { name: 'Finish signing up with Apple' })).toBeInTheDocument();
    const identity = screen.getByRole('region', { name: 'Your Apple account' });
    expect(within(identity).getByText('Bella Rossi')).toBeInTheDocument();
    expect(within(identity).getByText('bella@privaterelay.appleid.com')).toBeInTheDocument();
    expect(screen.getByLabelText('Phone number')).toHaveFocus();
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
  });

  it('checks the phone number: required, then 10 digits, formatted as typed', async () => {
    const { api, app } = await openWith(appleData);
    const phone = await screen.findByLabelText('Phone number');
    await submit(app);
    expect(await screen.findByText('Phone number is required')).toBeInTheDocument();
    await app.user.type(phone, '212555');
    expect(phone).toHaveValue('(212) 555');
    await submit(app);
    expect(await screen.findByText('Please enter a valid 10-digit phone number')).toBeInTheDocument();
    expect(phone).toHaveAccessibleDescription(
      'A US number where we can reach you about your account. Please enter a valid 10-digit phone number',
    );
    expect(api.callsTo('POST /auth/external')).toHaveLength(0);
  });

  it('repeats the sign-in with the stored data, proof and phone, then goes to /congratulations', async () => {
    const user = newVerifiedUser({
      isExternalAuth: true,
      provider: 'apple',
      providerId: 'apple-sub-1',
      email: appleData.email,
      phoneNumber: '+12125550143',
    });
    const { api, app } = await openWith(appleData, { 'POST /auth/external': externalAnswer(user, true) });
    await app.user.type(await screen.findByLabelText('Phone number'), '2125550143{Enter}');
    expect(await screen.findByRole('heading', { name: 'Congratulations, Bella!' })).toBeInTheDocument();
    expect(app.location()).toBe('/congratulations');
    expect(api.callsTo('POST /auth/external')[0]!.body).toEqual({
      ...appleData,
      phoneNumber: '+12125550143',
    });
    expect(localStorage.getItem('token')).toBe('social-token');
    // Kept for onboarding, without the Apple token now that it has been used.
    expect(JSON.parse(sessionStorage.getItem('socialUserData')!)).toEqual({
      firstName: 'Bella',
      lastName: 'Rossi',
      email: appleData.email,
      provider: 'apple',
      providerId: 'apple-sub-1',
    });
  });

  it('shows a busy button while the server answers', async () => {
    const { app } = await openWith(appleData, { 'POST /auth/external': 'pending' });
    await app.user.type(await screen.findByLabelText('Phone number'), '2125550143');
    await submit(app);
    expect(screen.getByRole('button', { name: 'Create my account' })).toHaveAttribute('aria-busy', 'true');
  });

  it("puts the server's phone message under the field", async () => {
    const { app } = await openWith(appleData, {
      'POST /auth/external': errorAnswer(400, 'Please enter a valid phone number', {
        phoneNumber: 'Please enter a valid phone number',
      }),
    });
    const phone = await screen.findByLabelText('Phone number');
    await app.user.type(phone, '5551234567');
    await submit(app);
    expect(await screen.findByText('Please enter a valid phone number')).toBeInTheDocument();
    expect(phone).toHaveAttribute('aria-invalid', 'true');
    expect(app.location()).toBe('/post-login-onboarding');
  });

  it('shows other refusals above the form, in the server words or the SPEC default', async () => {
    const { app } = await openWith(appleData, {
      'POST /auth/external': errorAnswer(401, 'Apple sign-in could not be verified: the token has expired.'),
    });
    await app.user.type(await screen.findByLabelText('Phone number'), '2125550143');
    await submit(app);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Apple sign-in could not be verified: the token has expired.',
    );

    mockApi({ 'POST /auth/external': errorAnswer(500) });
    await submit(app);
    expect(await screen.findByText('Apple sign-in failed. Please try again.')).toBeInTheDocument();
  });

  it('asks for the email when the provider gave none, and sends it', async () => {
    const facebookData: SocialUserData = {
      firstName: 'Bella',
      lastName: 'Rossi',
      email: '',
      provider: 'facebook',
      providerId: 'fb-user-1',
      accessToken: 'fb-token',
    };
    const { api, app } = await openWith(facebookData, {
      'POST /auth/external': externalAnswer(
        makeUser({ isExternalAuth: true, provider: 'facebook', providerId: 'fb-user-1' }),
        false,
      ),
    });
    expect(
      await screen.findByRole('heading', { name: 'Finish signing up with Facebook' }),
    ).toBeInTheDocument();
    expect(screen.getByText('No email shared')).toBeInTheDocument();
    expect(screen.queryByLabelText('Phone number')).not.toBeInTheDocument();
    const email = screen.getByLabelText('Email');
    expect(email).toHaveFocus();
    await submit(app);
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    await app.user.type(email, 'bella@example.com');
    await submit(app);
    expect(await screen.findByRole('heading', { name: 'My Account' })).toBeInTheDocument();
    expect(api.callsTo('POST /auth/external')[0]!.body).toEqual({
      ...facebookData,
      email: 'bella@example.com',
    });
    expect(sessionStorage.getItem('socialUserData')).toBeNull();
  });

  it('asks for a phone after all when the server says it is required', async () => {
    const googleData: SocialUserData = { ...appleData, provider: 'google', nonce: undefined };
    const { app } = await openWith(googleData, {
      'POST /auth/external': errorAnswer(400, 'Phone number is required to finish signing up with Apple.'),
    });
    await screen.findByRole('heading', { name: 'Finish signing up with Google' });
    expect(screen.queryByLabelText('Phone number')).not.toBeInTheDocument();
    await submit(app);
    expect(await screen.findByText('Phone number is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Phone number')).toBeInTheDocument();
  });

  it('lets the owner give up and choose another way to log in', async () => {
    const { app } = await openWith(appleData);
    await app.user.click(await screen.findByRole('link', { name: 'Use a different way to log in' }));
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(sessionStorage.getItem('socialUserData')).toBeNull();
  });
});
