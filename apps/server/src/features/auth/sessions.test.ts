import { authMessages } from '@waitlist/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema.ts';
import {
  auth,
  createTestApp,
  latestEmailTo,
  login,
  registerUser,
  secretsIn,
  type TestApp,
} from '../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const me = (token: string) => t.app.inject({ url: '/api/v1/auth/me', headers: auth(token) });
const sessionCount = async (userId: string) =>
  (await t.database.db.select().from(sessions).where(eq(sessions.userId, userId))).length;

async function signIn(email: string, password: string): Promise<string> {
  const response = await login(t, email, password);
  expect(response.statusCode).toBe(200);
  return response.json().token;
}

describe('GET /auth/me', () => {
  it('returns the signed-in user (with id and _id) and nothing secret', async () => {
    const owner = await registerUser(t);
    const response = await me(owner.token);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ success: true, data: { id: owner.id, _id: owner.id, email: owner.email } });
    expect(secretsIn(body)).toEqual([]);
  });

  it('answers 401 without a token', async () => {
    const response = await t.app.inject({ url: '/api/v1/auth/me' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ success: false, message: authMessages.notAuthenticated });
  });

  it.each([
    ['a garbage token', auth('not-a-real-token')],
    ['a malformed header', { authorization: 'Token abc' }],
    ['an empty bearer', { authorization: 'Bearer ' }],
  ])('answers 401 for %s', async (_label, headers) => {
    const response = await t.app.inject({ url: '/api/v1/auth/me', headers });
    expect(response.statusCode).toBe(401);
    expect(response.json().success).toBe(false);
  });

  it('does not accept the stored token hash as a token', async () => {
    const owner = await registerUser(t);
    const [row] = await t.database.db.select().from(sessions).where(eq(sessions.userId, owner.id));
    expect(row!.tokenHash).not.toBe(owner.token);
    expect((await me(row!.tokenHash)).statusCode).toBe(401);
  });
});

describe('session lifetime and revocation', () => {
  it('logout revokes that token only', async () => {
    const owner = await registerUser(t);
    const other = await signIn(owner.email, owner.password);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      headers: auth(owner.token),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: authMessages.loggedOut });
    expect((await me(owner.token)).statusCode).toBe(401);
    expect((await me(other)).statusCode).toBe(200);
    expect(await sessionCount(owner.id)).toBe(1);
  });

  it('a password change keeps the current session and signs every other session out', async () => {
    const owner = await registerUser(t);
    const laptop = await signIn(owner.email, owner.password);
    const phone = await signIn(owner.email, owner.password);
    expect(await sessionCount(owner.id)).toBe(3);

    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/auth/updatepassword',
      headers: auth(laptop),
      payload: { currentPassword: owner.password, newPassword: 'brand-new-pass' },
    });
    expect(response.statusCode).toBe(200);
    expect((await me(laptop)).statusCode).toBe(200);
    expect((await me(phone)).statusCode).toBe(401);
    expect((await me(owner.token)).statusCode).toBe(401);
    expect(await sessionCount(owner.id)).toBe(1);
    expect((await latestEmailTo(t, owner.email))?.subject).toBe('Your password was changed');
  });

  it('a password reset signs every session out', async () => {
    const owner = await registerUser(t);
    const second = await signIn(owner.email, owner.password);
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgotpassword',
      payload: { email: owner.email },
    });
    const link = (await latestEmailTo(t, owner.email))!.text.match(/\/reset-password\/([\w-]+)/)![1]!;
    const reset = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/auth/resetpassword/${link}`,
      payload: { password: 'another-pass' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await me(owner.token)).statusCode).toBe(401);
    expect((await me(second)).statusCode).toBe(401);
    expect(await sessionCount(owner.id)).toBe(0);
  });

  it('account deletion revokes the token', async () => {
    const owner = await registerUser(t);
    const response = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/auth/account',
      headers: auth(owner.token),
    });
    expect(response.statusCode).toBe(200);
    const after = await me(owner.token);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ success: false, message: authMessages.sessionExpired });
  });

  it('a session expires 30 days after sign-in', async () => {
    const owner = await registerUser(t);
    t.clock.advance(30 * 24 * 3600 * 1000 - 60_000);
    expect((await me(owner.token)).statusCode).toBe(200);
    t.clock.advance(60_000);
    const expired = await me(owner.token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ success: false, message: authMessages.sessionExpired });
    // Signing in again gives a fresh 30 days.
    expect((await me(await signIn(owner.email, owner.password))).statusCode).toBe(200);
  });
});
