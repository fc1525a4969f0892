import { authMessages } from '@waitlist/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailVerifications, passwordResets, sessions, users } from '../../db/schema.ts';
import {
  auth,
  createTestApp,
  latestCodeFor,
  login,
  onboardedUser,
  registerUser,
  secretsIn,
  type TestApp,
  uniqueEmail,
  verifiedUser,
} from '../../test/test-app.ts';

const boss = uniqueEmail('boss');
const deputy = uniqueEmail('deputy');
let t: TestApp;
beforeAll(async () => {
  // Listed in another case and with spaces, as people type them into an environment file.
  t = await createTestApp({ env: { ADMIN_EMAILS: ` ${boss.toUpperCase()} ,${deputy}` } });
});
afterAll(() => t.close());

const me = (token: string) => t.app.inject({ url: '/api/v1/auth/me', headers: auth(token) });
const rowsOf = async (userId: string) => ({
  users: await t.database.db.select().from(users).where(eq(users.id, userId)),
  sessions: await t.database.db.select().from(sessions).where(eq(sessions.userId, userId)),
  codes: await t.database.db.select().from(emailVerifications).where(eq(emailVerifications.userId, userId)),
  resets: await t.database.db.select().from(passwordResets).where(eq(passwordResets.userId, userId)),
});

describe('GET /auth/me through onboarding', () => {
  it('reflects each step, and no answer that carries the user carries a secret', async () => {
    const email = uniqueEmail();
    const register = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { firstName: 'Bella', lastName: 'Rossi', email, password: 'secret123' },
    });
    expect(register.statusCode).toBe(201);
    expect(secretsIn(register.json())).toEqual([]);
    const { token } = register.json();

    const fresh = await me(token);
    expect(secretsIn(fresh.json())).toEqual([]);
    expect(fresh.json().data).toMatchObject({
      email,
      verified: false,
      admin: false,
      businessVerification: { status: null, businessPhone: '' },
    });

    const signedIn = await login(t, email, 'secret123');
    expect(secretsIn(signedIn.json())).toEqual([]);

    const verify = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/verify-account',
      headers: auth(token),
      payload: { verificationCode: await latestCodeFor(t, email) },
    });
    expect(verify.statusCode).toBe(200);
    expect(secretsIn(verify.json())).toEqual([]);
    expect((await me(token)).json().data.verified).toBe(true);

    const business = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/business-verification',
      headers: auth(token),
      payload: { businessName: 'Bella Salon', businessPhone: '(555) 123-4567' },
    });
    expect(business.statusCode).toBe(200);
    expect(secretsIn(business.json())).toEqual([]);
    const onboarded = await me(token);
    expect(secretsIn(onboarded.json())).toEqual([]);
    expect(onboarded.json().data).toMatchObject({
      businessName: 'Bella Salon',
      businessVerification: { status: 'submitted', businessPhone: '5551234567' },
    });

    const id = onboarded.json().data.id;
    for (const response of [
      await t.app.inject({
        method: 'PUT',
        url: '/api/v1/auth/updatedetails',
        headers: auth(token),
        payload: { firstName: 'Bea', lastName: 'Rossi', email },
      }),
      await t.app.inject({
        method: 'PUT',
        url: `/api/v1/users/${id}`,
        headers: auth(token),
        payload: { lastName: 'Russo' },
      }),
    ]) {
      expect(response.statusCode).toBe(200);
      expect(secretsIn(response.json())).toEqual([]);
    }
    // Nothing in the whole answer looks like a stored hash or token either.
    const answer = JSON.stringify((await me(token)).json());
    const { users: userRows, sessions: sessionRows } = await rowsOf(id);
    expect(answer).not.toContain(userRows[0]!.passwordHash!);
    for (const session of sessionRows) expect(answer).not.toContain(session.tokenHash);
  });
});

describe('DELETE /auth/account', () => {
  it('deletes the user and everything that belongs to them, and revokes every session', async () => {
    const owner = await onboardedUser(t);
    const second = (await login(t, owner.email, owner.password)).json().token;
    // Leave a pending code and an unused reset link behind, to check they go with the account.
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgotpassword',
      payload: { email: owner.email },
    });
    await t.database.db
      .insert(emailVerifications)
      .values({ userId: owner.id, email: owner.email, codeHash: 'x', expiresAt: t.clock.now() });
    const before = await rowsOf(owner.id);
    expect(before.users).toHaveLength(1);
    expect(before.sessions).toHaveLength(2);
    expect(before.codes).toHaveLength(1);
    expect(before.resets).toHaveLength(1);
    const bystander = await registerUser(t);

    const response = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/auth/account',
      headers: auth(second),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: authMessages.accountDeleted });

    expect(await rowsOf(owner.id)).toEqual({ users: [], sessions: [], codes: [], resets: [] });
    for (const token of [owner.token, second]) {
      const after = await me(token);
      expect(after.statusCode).toBe(401);
      expect(after.json()).toEqual({ success: false, message: authMessages.sessionExpired });
    }
    expect((await login(t, owner.email, owner.password)).statusCode).toBe(401);
    // Deleting one account touches no other.
    expect((await me(bystander.token)).statusCode).toBe(200);
    // The email address is free again.
    expect((await registerUser(t, { email: owner.email })).user.email).toBe(owner.email);
  });

  it('answers 401 to a visitor and deletes nothing', async () => {
    const response = await t.app.inject({ method: 'DELETE', url: '/api/v1/auth/account' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ success: false, message: authMessages.notAuthenticated });
    const bad = await t.app.inject({ method: 'DELETE', url: '/api/v1/auth/account', headers: auth('nope') });
    expect(bad.statusCode).toBe(401);
  });
});

describe('POST /auth/logout', () => {
  it('revokes only the session it was called with', async () => {
    const owner = await registerUser(t);
    const second = (await login(t, owner.email, owner.password)).json().token;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      headers: auth(second),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: authMessages.loggedOut });
    expect((await me(second)).statusCode).toBe(401);
    expect((await me(owner.token)).statusCode).toBe(200);
    expect((await rowsOf(owner.id)).sessions).toHaveLength(1);
    // Logging out again with the revoked token is refused, not an error.
    const again = await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: auth(second) });
    expect(again.statusCode).toBe(401);
  });
});

describe('ADMIN_EMAILS', () => {
  it('a listed email that registers is not an admin until its owner enters the code (issue 12)', async () => {
    const admin = await registerUser(t, { email: ` ${boss} `.toUpperCase() });
    expect(admin.user).toMatchObject({ email: boss, admin: false, verified: false });
    expect((await me(admin.token)).json().data.admin).toBe(false);
    // Start-up's grant skips an unverified address too.
    expect(await t.app.services.auth.grantAdmins(t.config.adminEmails)).toEqual([]);
    const verify = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/verify-account',
      headers: auth(admin.token),
      payload: { verificationCode: await latestCodeFor(t, boss) },
    });
    expect(verify.json().user).toMatchObject({ verified: true, admin: true });
    expect((await me(admin.token)).json().data.admin).toBe(true);
    const ordinary = await verifiedUser(t);
    expect(ordinary.user.admin).toBe(false);
  });

  it('grantAdmins (run at start-up) makes existing verified listed users admins, case-insensitively, and only them', async () => {
    const listed = await verifiedUser(t, { email: uniqueEmail('later') });
    const unlisted = await verifiedUser(t);
    const unverified = await registerUser(t, { email: uniqueEmail('unproved') });
    expect(listed.user.admin).toBe(false);

    const granted = await t.app.services.auth.grantAdmins([
      listed.email.toUpperCase(),
      unverified.email,
      uniqueEmail('ghost'),
    ]);
    expect(granted).toEqual([{ email: listed.email }]);
    expect((await me(listed.token)).json().data.admin).toBe(true);
    expect((await me(unlisted.token)).json().data.admin).toBe(false);
    expect((await me(unverified.token)).json().data.admin).toBe(false);
    // Running it again (the next start) changes nothing and reports nothing.
    expect(await t.app.services.auth.grantAdmins([listed.email])).toEqual([]);
    expect(await t.app.services.auth.grantAdmins([])).toEqual([]);
  });

  it('start-up grants the configured list: a verified user who registered before being listed becomes admin', async () => {
    expect(t.config.adminEmails).toEqual([boss, deputy]);
    // Verifying while listed already makes deputy an admin; undo that to stand for an earlier sign-up.
    const early = await verifiedUser(t, { email: deputy });
    await t.database.db.update(users).set({ admin: false }).where(eq(users.id, early.id));
    const granted = await t.app.services.auth.grantAdmins(t.config.adminEmails);
    expect(granted).toEqual([{ email: deputy }]);
    expect((await me(early.token)).json().data.admin).toBe(true);
  });
});
