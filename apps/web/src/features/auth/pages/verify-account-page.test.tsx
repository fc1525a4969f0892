import { screen, within } from '@testing-library/react';
import { authMessages, screenMessages } from '@waitlist/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { advance, fakeTheClock, settle } from '../../../test/clock.ts';
import { errorAnswer, newVerifiedUser, unverifiedUser } from '../../../test/fixtures.ts';
import { mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

async function openVerify(handlers: Parameters<typeof mockSignedIn>[1] = {}) {
  const api = mockSignedIn(unverifiedUser(), handlers);
  const app = renderApp('/verify-account', { token: 'tok' });
  await screen.findByRole('heading', { name: 'Verify your email' });
  return { app, api, codeField: screen.getByLabelText('Verification code') };
}

const verifyButton = () => screen.getByRole('button', { name: 'Verify' });
const toastRegion = () => screen.getByRole('region', { name: 'Notifications' });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('verify account page', () => {
  it('tells the user where the code went', async () => {
    await openVerify();
    expect(screen.getByText('bella@example.com')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: '/dev/mailbox' })).toHaveAttribute('href', '/dev/mailbox');
  });

  it('shows the logo once: in the app header, not again above the card (issue 27)', async () => {
    await openVerify();
    expect(screen.getAllByText('Waitlist & Text')).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Waitlist & Text home' })).toBeInTheDocument();
  });

  it('keeps only digits, at most six, whatever is typed', async () => {
    const { app, codeField } = await openVerify();
    await app.user.type(codeField, '12a-3 4');
    expect(codeField).toHaveValue('1234');
    await app.user.type(codeField, '5678');
    expect(codeField).toHaveValue('123456');
  });

  it('keeps only digits of a pasted code', async () => {
    const { app, codeField } = await openVerify();
    await app.user.click(codeField);
    await app.user.paste(' 987-654 ');
    expect(codeField).toHaveValue('987654');
  });

  it('wants a code, of exactly 6 digits', async () => {
    const { app, api, codeField } = await openVerify();
    await app.user.click(verifyButton());
    expect(await screen.findByText('Verification code is required')).toBeInTheDocument();
    await app.user.type(codeField, '123');
    await app.user.click(verifyButton());
    expect(await screen.findByText('Verification code must be 6 digits')).toBeInTheDocument();
    expect(api.callsTo('POST /auth/verify-account')).toHaveLength(0);
  });

  it('shows why a wrong code was refused, and stays', async () => {
    const { app, codeField } = await openVerify({
      'POST /auth/verify-account': errorAnswer(400, authMessages.codeInvalid),
    });
    await app.user.type(codeField, '000000');
    await app.user.click(verifyButton());
    const toast = await within(toastRegion()).findByText(authMessages.codeInvalid);
    expect(toast.closest('[data-testid="toast"]')).toHaveClass('toast--error');
    expect(app.location()).toBe('/verify-account');
    expect(codeField).toBeEnabled();
  });

  it('falls back to the SPEC words when the server gives no reason', async () => {
    const { app, codeField } = await openVerify({ 'POST /auth/verify-account': errorAnswer(500) });
    await app.user.type(codeField, '000000');
    await app.user.click(verifyButton());
    expect(
      await within(toastRegion()).findByText(
        'Failed to verify account. Please check your code and try again.',
      ),
    ).toBeInTheDocument();
  });

  it('sends a new code on request', async () => {
    const { app, api } = await openVerify({
      'POST /auth/send-verification': { body: { success: true, message: screenMessages.newCodeSent } },
    });
    await app.user.click(screen.getByRole('button', { name: 'Resend code' }));
    expect(
      await within(toastRegion()).findByText('A new verification code has been sent to your email.'),
    ).toBeInTheDocument();
    expect(api.callsTo('POST /auth/send-verification')).toHaveLength(1);
  });

  it('says when a new code could not be sent', async () => {
    const { app } = await openVerify({ 'POST /auth/send-verification': errorAnswer(500) });
    await app.user.click(screen.getByRole('button', { name: 'Resend code' }));
    expect(
      await within(toastRegion()).findByText('Failed to resend verification code. Please try again.'),
    ).toBeInTheDocument();
  });

  it.each([
    ['a desktop', false],
    ['a phone', true],
  ])(
    'on %s, success shows the banner, goes to /congratulations after 1.5 s, and the banner goes after 5 s',
    async (_width, phone) => {
      // Issue 27: on a phone too, the redirect does not clear the banner before its 5 s.
      vi.stubGlobal(
        'matchMedia',
        vi.fn((query: string) => ({ matches: phone && query.includes('max-width'), media: query })),
      );
      const { app, api, codeField } = await openVerify({
        'POST /auth/verify-account': {
          body: { success: true, user: newVerifiedUser(), message: screenMessages.accountVerified },
        },
      });
      await app.user.type(codeField, '123456');

      fakeTheClock();
      await app.user.click(verifyButton());
      await settle(() => expect(within(screen.getByRole('main')).getByRole('status')).toBeInTheDocument());
      expect(api.callsTo('POST /auth/verify-account')[0]!.body).toEqual({ verificationCode: '123456' });
      expect(within(screen.getByRole('main')).getByRole('status')).toHaveTextContent(
        'Account verified successfully!',
      );
      expect(within(toastRegion()).getByText('Account verified successfully!')).toBeInTheDocument();
      expect(verifyButton()).toBeDisabled();
      expect(screen.getByRole('button', { name: 'Resend code' })).toBeDisabled();

      // SPEC §9: redirect 1.5 s after verification, banner shown 5 s, 300 ms exit.
      await advance(1499);
      expect(app.location()).toBe('/verify-account');
      await advance(1);
      expect(app.location()).toBe('/congratulations');
      expect(screen.getByRole('heading', { name: 'Congratulations, Bella!' })).toBeInTheDocument();

      const banner = within(toastRegion()).getByText('Account verified successfully!');
      await advance(5000 - 1500 - 1);
      expect(banner.closest('[data-testid="toast"]')).not.toHaveClass('toast--leaving');
      await advance(1);
      expect(banner.closest('[data-testid="toast"]')).toHaveClass('toast--leaving');
      await advance(300);
      expect(screen.queryByText('Account verified successfully!')).not.toBeInTheDocument();
    },
  );

  it('lets the user log out from here', async () => {
    const { app, api } = await openVerify();
    await app.user.click(screen.getByRole('button', { name: 'Log out' }));
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(api.callsTo('POST /auth/logout')).toHaveLength(1);
    expect(localStorage.getItem('token')).toBeNull();
  });
});
