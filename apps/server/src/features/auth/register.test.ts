import { validationMessages } from '@waitlist/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auth,
  createTestApp,
  latestCodeFor,
  registerUser,
  type TestApp,
  uniqueEmail,
} from '../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('POST /auth/register', () => {
  it('creates an unverified trial user, signs them in and emails a 6-digit code', async () => {
    const email = uniqueEmail();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: {
        firstName: 'Bella',
        lastName: 'Rossi',
        email: `  ${email.toUpperCase()} `,
        password: 'secret123',
      },
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.success).toBe(true);
    expect(body.token).toMatch(/^[\w-]{40,}$/);
    expect(body.user).toMatchObject({ email, verified: false, admin: false, subscriptionPlan: 'free_trial' });
    expect(body.user.id).toBe(body.user._id);
    expect(new Date(body.user.trialEndDate).getTime() - t.clock.now().getTime()).toBe(7 * 24 * 3600 * 1000);
    expect(JSON.stringify(body)).not.toMatch(/password|hash/i);
    expect(await latestCodeFor(t, email)).toMatch(/^\d{6}$/);

    const me = await t.app.inject({ url: '/api/v1/auth/me', headers: auth(body.token) });
    expect(me.json().data.email).toBe(email);
  });

  it('refuses each invalid field with the SPEC message and creates nothing', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { firstName: ' ', lastName: '', email: 'not-an-email', password: '123' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({
      firstName: validationMessages.firstNameRequired,
      lastName: validationMessages.lastNameRequired,
      email: validationMessages.emailInvalidFormat,
      password: validationMessages.passwordTooShort,
    });
  });

  it('refuses an email that is already registered, in any case', async () => {
    const existing = await registerUser(t);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { firstName: 'X', lastName: 'Y', email: existing.email.toUpperCase(), password: 'secret123' },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      success: false,
      message: 'An account with this email already exists',
    });
  });
});
