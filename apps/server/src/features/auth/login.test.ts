import { authMessages, validationMessages } from '@waitlist/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auth,
  createTestApp,
  login,
  registerUser,
  secretsIn,
  type TestApp,
  uniqueEmail,
} from '../../test/test-app.ts';

let t: TestApp;
let owner: Awaited<ReturnType<typeof registerUser>>;
beforeAll(async () => {
  t = await createTestApp();
  owner = await registerUser(t);
});
afterAll(() => t.close());

describe('POST /auth/login', () => {
  it('signs in with the right password; the token works on /auth/me and nothing secret is returned', async () => {
    const response = await login(t, owner.email, owner.password);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ success: true, message: authMessages.loginSuccessful });
    expect(body.user).toMatchObject({ id: owner.id, _id: owner.id, email: owner.email, firstName: 'Bella' });
    expect(body.token).toMatch(/^[\w-]{40,}$/);
    expect(body.token).not.toBe(owner.token);
    expect(secretsIn(body)).toEqual([]);

    const me = await t.app.inject({ url: '/api/v1/auth/me', headers: auth(body.token) });
    expect(me.statusCode).toBe(200);
    expect(me.json().data.id).toBe(owner.id);
  });

  it('treats the email case-insensitively and ignores surrounding spaces', async () => {
    const response = await login(t, `  ${owner.email.toUpperCase()} `, owner.password);
    expect(response.statusCode).toBe(200);
    expect(response.json().user.id).toBe(owner.id);
  });

  it('refuses a wrong password with 401 and the SPEC message, and issues no token', async () => {
    const response = await login(t, owner.email, 'wrong-password');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ success: false, message: authMessages.invalidCredentials });
    expect(authMessages.invalidCredentials).toBe('Invalid email or password. Please try again.');
  });

  it('answers an unknown email exactly like a wrong password (no account enumeration)', async () => {
    const wrongPassword = await login(t, owner.email, 'wrong-password');
    const unknown = await login(t, uniqueEmail('nobody'), 'wrong-password');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(wrongPassword.statusCode);
    expect(unknown.json()).toEqual(wrongPassword.json());
  });

  it('says the password is case-sensitive: the right password in another case is refused', async () => {
    const response = await login(t, owner.email, owner.password.toUpperCase());
    expect(response.statusCode).toBe(401);
  });

  it.each([
    [{ password: 'secret123' }, 'email', validationMessages.emailRequired],
    [{ email: '   ', password: 'secret123' }, 'email', validationMessages.emailRequired],
    [{ email: 'not-an-email', password: 'secret123' }, 'email', validationMessages.emailInvalid],
    [{ email: 'a@b', password: 'secret123' }, 'email', validationMessages.emailInvalid],
    [{ email: 'owner@example.com' }, 'password', validationMessages.passwordRequired],
    [{ email: 'owner@example.com', password: '' }, 'password', validationMessages.passwordRequired],
  ])('refuses %j with 400 and "%s: %s"', async (payload, field, message) => {
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message, errors: { [field]: message } });
  });

  it('reports every invalid field at once', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: {} });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({
      email: validationMessages.emailRequired,
      password: validationMessages.passwordRequired,
    });
  });
});
