import { authMessages, screenMessages, socialMessages } from '@waitlist/contract';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordResets, sessions, users } from '../../db/schema.ts';
import { type FakeIdentity, startFakeIdentity } from '../../test/fake-identity.ts';
import {
  auth,
  createTestApp,
  latestEmailTo,
  login,
  onboardedUser,
  registerUser,
  type TestApp,
  uniqueEmail,
  uniqueIp,
} from '../../test/test-app.ts';
import { externalAuth, usersWithEmail } from './social.test-helpers.ts';

let fake: FakeIdentity;
let t: TestApp;
beforeAll(async () => {
  fake = await startFakeIdentity();
  t = await createTestApp({ env: fake.env });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

let lastSub = 500_000;
const nextSub = () => {
  lastSub += 1;
  return String(lastSub);
};
async function googleBody(email: string, sub = nextSub()) {
  const idToken = await fake.googleIdToken(
    { sub, email, given_name: 'Gina', family_name: 'Google' },
    { now: t.clock.now() },
  );
  return { firstName: 'Gina', lastName: 'Google', email, provider: 'google', providerId: sub, idToken };
}

const sessionCount = async (userId: string) => {
  const [row] = await t.database.db.select({ n: count() }).from(sessions).where(eq(sessions.userId, userId));
  return row!.n;
};

/** A Google-only owner, as the first social sign-in creates them. */
async function socialOwner() {
  const email = uniqueEmail('social');
  const response = await externalAuth(t, await googleBody(email));
  if (response.statusCode !== 200) throw new Error(`social sign-up failed: ${response.body}`);
  return { email, token: response.json().token as string, id: response.json().user.id as string };
}

describe('linking to an existing email+password account', () => {
  it('links a verified account on the first Google sign-in; the password still works and can be changed', async () => {
    const owner = await onboardedUser(t);
    const body = await googleBody(owner.email);
    const response = await externalAuth(t, body);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      success: true,
      isNewUser: false,
      message: socialMessages.linked('google'),
      user: {
        id: owner.id,
        provider: 'google',
        providerId: body.providerId,
        // Keeps its password, so it is not an external-only account.
        isExternalAuth: false,
        verified: true,
        firstName: 'Bella',
        businessName: 'Bella Salon',
      },
    });
    expect(await usersWithEmail(t, owner.email)).toHaveLength(1);

    // Next time it is found by its Google identity.
    const again = await externalAuth(t, body);
    expect(again.json()).toMatchObject({
      isNewUser: false,
      message: socialMessages.signedIn,
      user: { id: owner.id },
    });

    expect((await login(t, owner.email, owner.password)).statusCode).toBe(200);
    const change = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/auth/updatepassword',
      headers: auth(response.json().token),
      payload: { currentPassword: owner.password, newPassword: 'another-secret' },
    });
    expect(change.statusCode).toBe(200);
    expect((await login(t, owner.email, 'another-secret')).statusCode).toBe(200);
  });

  it('refuses to take over an account whose email was never verified (409), and changes nothing', async () => {
    const squatter = await registerUser(t);
    const [before] = await usersWithEmail(t, squatter.email);
    const sessionsBefore = await sessionCount(squatter.id);

    const response = await externalAuth(t, await googleBody(squatter.email));
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      success: false,
      message: socialMessages.unverifiedAccountExists('google'),
    });
    const [after] = await usersWithEmail(t, squatter.email);
    expect(after).toEqual(before);
    expect(after!.provider).toBeNull();
    expect(await sessionCount(squatter.id)).toBe(sessionsBefore);
  });

  it('refuses a second Google identity for an email already linked to another one', async () => {
    const owner = await socialOwner();
    const impostor = await externalAuth(t, await googleBody(owner.email, 'another-google-subject'));
    expect(impostor.statusCode).toBe(409);
    expect(impostor.json()).toEqual({
      success: false,
      message: socialMessages.linkedToAnotherAccount('google'),
    });
    const [row] = await usersWithEmail(t, owner.email);
    expect(row!.providerId).not.toBe('another-google-subject');
  });

  it('signs a Google account in with Facebook when both vouch for the email, keeping the Google link', async () => {
    const owner = await socialOwner();
    const accessToken = fake.facebookToken({
      userId: '31337',
      profile: { email: owner.email, first_name: 'F' },
    });
    const response = await externalAuth(t, { provider: 'facebook', email: owner.email, accessToken });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      isNewUser: false,
      message: socialMessages.signedIn,
      user: { id: owner.id, provider: 'google' },
    });
  });
});

describe('accounts made by social sign-in', () => {
  it('cannot change a password through PUT /auth/updatepassword (400)', async () => {
    const owner = await socialOwner();
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/auth/updatepassword',
      headers: auth(owner.token),
      payload: { currentPassword: 'anything', newPassword: 'new-secret' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message: authMessages.externalCannotChangePassword });
  });

  it('cannot log in with a password', async () => {
    const owner = await socialOwner();
    const response = await login(t, owner.email, 'any-password');
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe(authMessages.invalidCredentials);
  });

  it('forgot-password answers as for anyone, but emails the way in instead of a reset link', async () => {
    const owner = await socialOwner();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgotpassword',
      payload: { email: owner.email },
      remoteAddress: uniqueIp(),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: screenMessages.forgotPasswordSent });

    const email = await latestEmailTo(t, owner.email);
    expect(email?.subject).toBe('You sign in with Google');
    expect(email?.text).toContain('Google button');
    expect(email?.text).not.toMatch(/reset-password/);
    const resets = await t.database.db
      .select()
      .from(passwordResets)
      .where(eq(passwordResets.userId, owner.id));
    expect(resets).toHaveLength(0);
  });
});

describe('concurrent first sign-ins', () => {
  it('create exactly one account however many arrive at once', async () => {
    const email = uniqueEmail('race');
    const body = await googleBody(email);
    const answers = await Promise.all(Array.from({ length: 6 }, () => externalAuth(t, body)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(6).fill(200));
    const ids = new Set(answers.map((answer) => answer.json().user.id));
    expect(ids.size).toBe(1);
    expect(answers.filter((answer) => answer.json().isNewUser)).toHaveLength(1);
    expect(await usersWithEmail(t, email)).toHaveLength(1);
    const [row] = await t.database.db
      .select({ n: count() })
      .from(users)
      .where(eq(users.providerId, body.providerId));
    expect(row!.n).toBe(1);
  });

  it('link a verified account once when several arrive at once', async () => {
    const owner = await onboardedUser(t);
    const body = await googleBody(owner.email);
    const answers = await Promise.all(Array.from({ length: 4 }, () => externalAuth(t, body)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(4).fill(200));
    expect(new Set(answers.map((answer) => answer.json().user.id))).toEqual(new Set([owner.id]));
    expect(
      answers.filter((answer) => answer.json().message === socialMessages.linked('google')),
    ).toHaveLength(1);
  });
});
