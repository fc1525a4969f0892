import { screen, within } from '@testing-library/react';
import { authMessages, screenMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { errorAnswer } from '../../../test/fixtures.ts';
import { mockApi } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

async function openForgot() {
  const app = renderApp('/forgot-password');
  await screen.findByRole('heading', { name: 'Forgot your password?' });
  return app;
}

async function ask(app: ReturnType<typeof renderApp>, email: string) {
  const field = screen.getByLabelText('Email');
  await app.user.clear(field);
  if (email) await app.user.type(field, email);
  await app.user.click(screen.getByRole('button', { name: 'Send reset instructions' }));
}

describe('forgot password page', () => {
  it('wants an email, in a Validation Error toast and under the field', async () => {
    const api = mockApi();
    const app = await openForgot();
    await ask(app, '');
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent('Validation Error');
    expect(toast).toHaveTextContent('Email is required');
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Email is required');
    expect(api.callsTo('POST /auth/forgotpassword')).toHaveLength(0);
  });

  it('wants a valid email', async () => {
    const api = mockApi();
    const app = await openForgot();
    await ask(app, 'not-an-email');
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent('Validation Error');
    expect(toast).toHaveTextContent('Please enter a valid email address');
    expect(api.callsTo('POST /auth/forgotpassword')).toHaveLength(0);
  });

  it('says the same thing whether or not the email has an account', async () => {
    // The server answers alike for both (docs/decisions/0003); the page adds nothing of its own.
    const api = mockApi({
      'POST /auth/forgotpassword': { body: { success: true, message: screenMessages.forgotPasswordSent } },
    });
    const app = await openForgot();

    await ask(app, 'bella@example.com');
    const main = screen.getByRole('main');
    const known = await within(main).findByRole('status');
    const knownText = known.textContent;
    expect(knownText).toContain('Password reset instructions have been sent to your email.');
    expect(await screen.findByTestId('toast')).toHaveTextContent(screenMessages.forgotPasswordSent);

    await ask(app, 'nobody@example.com');
    expect(api.callsTo('POST /auth/forgotpassword').map((call) => call.body)).toEqual([
      { email: 'bella@example.com' },
      { email: 'nobody@example.com' },
    ]);
    expect(within(main).getByRole('status').textContent).toBe(knownText);
    expect(screen.getAllByTestId('toast').map((toast) => toast.textContent)).toEqual([
      expect.stringContaining(screenMessages.forgotPasswordSent),
      expect.stringContaining(screenMessages.forgotPasswordSent),
    ]);
  });

  it('shows why the server refused (e.g. too many requests)', async () => {
    mockApi({ 'POST /auth/forgotpassword': errorAnswer(429, authMessages.tooManyAttempts(1)) });
    const app = await openForgot();
    await ask(app, 'bella@example.com');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many attempts. Please try again in 1 minute.',
    );
    expect(screen.queryByText(screenMessages.forgotPasswordSent)).not.toBeInTheDocument();
  });

  it('falls back to the SPEC default without a server message', async () => {
    mockApi({ 'POST /auth/forgotpassword': errorAnswer(500) });
    const app = await openForgot();
    await ask(app, 'bella@example.com');
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to process forgot password request');
  });
});
