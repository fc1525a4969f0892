import { authMessages, socialMessages, TRIAL_DAYS } from '@waitlist/contract';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeIdentity, startFakeIdentity, tamperPayload } from '../../test/fake-identity.ts';
import { auth, createTestApp, secretsIn, type TestApp, uniqueEmail, uniqueIp } from '../../test/test-app.ts';
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

const rejected = (reason: string) => ({
  success: false,
  message: socialMessages.tokenRejected('google', reason),
});

/** A valid Google ID token for a new person, and the SPEC fields the page would send with it. */
async function googleSignIn(claims: Record<string, unknown> = {}, options: { expiresIn?: number } = {}) {
  const email = uniqueEmail('google');
  const sub = String(Date.now()) + String(Math.floor(Math.random() * 1e6));
  const idToken = await fake.googleIdToken(
    { sub, email, given_name: 'Gina', family_name: 'Google', ...claims },
    { now: t.clock.now(), ...options },
  );
  return {
    idToken,
    sub,
    email,
    body: { firstName: 'Gina', lastName: 'Google', email, provider: 'google', providerId: sub, idToken },
  };
}

describe('POST /auth/external with a Google ID token', () => {
  it('signs up a new owner: verified, external, on the 7-day trial, with the name Google gave', async () => {
    const { body, email, sub } = await googleSignIn();
    // The page claims another name: Google's wins.
    const response = await externalAuth(t, { ...body, firstName: 'Mallory', lastName: 'Claims' });
    expect(response.statusCode).toBe(200);
    const answer = response.json();
    expect(answer).toMatchObject({ success: true, isNewUser: true, message: socialMessages.signedUp });
    expect(answer.user).toMatchObject({
      email,
      firstName: 'Gina',
      lastName: 'Google',
      verified: true,
      isExternalAuth: true,
      provider: 'google',
      providerId: sub,
      subscriptionPlan: 'free_trial',
      subscriptionStatus: 'trialing',
      admin: false,
    });
    expect(new Date(answer.user.trialEndDate).getTime() - t.clock.now().getTime()).toBe(
      TRIAL_DAYS * 24 * 60 * 60 * 1000,
    );
    expect(secretsIn(answer)).toEqual([]);

    const me = await t.app.inject({ url: '/api/v1/auth/me', headers: auth(answer.token) });
    expect(me.statusCode).toBe(200);
    expect(me.json().data.id).toBe(answer.user.id);
    const [row] = await usersWithEmail(t, email);
    expect(row!.passwordHash).toBeNull();
  });

  it('signs the same Google account in again, to the same user, without creating another', async () => {
    const { body, email } = await googleSignIn();
    const first = await externalAuth(t, body);
    expect(first.json().isNewUser).toBe(true);
    const second = await externalAuth(t, body);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({
      success: true,
      isNewUser: false,
      message: socialMessages.signedIn,
    });
    expect(second.json().user.id).toBe(first.json().user.id);
    expect(second.json().token).not.toBe(first.json().token);
    expect(await usersWithEmail(t, email)).toHaveLength(1);
  });

  it('needs only the token: the SPEC fields may be left out, and a claimed email may differ in case', async () => {
    const onlyToken = await googleSignIn();
    const response = await externalAuth(t, { provider: 'google', idToken: onlyToken.idToken });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.email).toBe(onlyToken.email);

    const shouted = await googleSignIn();
    const upper = await externalAuth(t, { ...shouted.body, email: shouted.email.toUpperCase() });
    expect(upper.statusCode).toBe(200);
  });

  it('accepts a token a little past its expiry (clock tolerance of one minute)', async () => {
    const { body } = await googleSignIn({}, { expiresIn: -30 });
    expect((await externalAuth(t, body)).statusCode).toBe(200);
  });

  it.each([
    [
      'wrong audience',
      { aud: 'someone-else.apps.googleusercontent.com' },
      {},
      'the token was issued for another app',
    ],
    ['wrong issuer', { iss: 'https://evil.example.com' }, {}, 'the token was not issued by Google'],
    ['expired', {}, { expiresIn: -3600 }, 'the token has expired'],
  ])('refuses a token with the %s with 401 and says why', async (_case, claims, options, reason) => {
    const { body, email } = await googleSignIn(claims, options);
    const response = await externalAuth(t, body);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(rejected(reason));
    expect(await usersWithEmail(t, email)).toHaveLength(0);
  });

  it('refuses a token signed with a key Google did not publish (bad signature)', async () => {
    const email = uniqueEmail('forged');
    const idToken = await fake.googleIdToken({ email }, { now: t.clock.now(), rogue: true });
    const response = await externalAuth(t, { provider: 'google', email, idToken });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(rejected('the token signature is invalid'));
  });

  it('refuses a token whose email was edited after signing (tampered payload), and creates nobody', async () => {
    const { idToken } = await googleSignIn();
    const victim = uniqueEmail('victim');
    const tampered = tamperPayload(idToken, (payload) => ({ ...payload, email: victim }));
    const response = await externalAuth(t, { provider: 'google', email: victim, idToken: tampered });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(rejected('the token signature is invalid'));
    expect(await usersWithEmail(t, victim)).toHaveLength(0);
  });

  it('refuses a token signed with an unknown key id', async () => {
    const email = uniqueEmail('unknown-kid');
    const idToken = await fake.googleIdToken({ email }, { now: t.clock.now(), kid: 'not-a-google-key' });
    const response = await externalAuth(t, { provider: 'google', idToken });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(rejected('the token was signed with an unknown key'));
  });

  it('refuses a token that is not a JWT, and one signed with a shared secret (HS256)', async () => {
    const garbage = await externalAuth(t, { provider: 'google', idToken: 'not-a-jwt' });
    expect(garbage.statusCode).toBe(401);
    expect(garbage.json()).toEqual(rejected('the token is malformed'));

    const now = Math.floor(t.clock.now().getTime() / 1000);
    const hmac = await new SignJWT({ email: uniqueEmail('hs'), email_verified: true })
      .setProtectedHeader({ alg: 'HS256', kid: 'google-key-1' })
      .setIssuer('https://accounts.google.com')
      .setAudience(fake.googleClientId)
      .setSubject('123')
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(new TextEncoder().encode('a-secret-anyone-could-pick-32-bytes!'));
    const response = await externalAuth(t, { provider: 'google', idToken: hmac });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(rejected('the token was signed with an algorithm we do not accept'));
  });

  it('refuses when the claimed email or provider id is not the one Google verified', async () => {
    const { body } = await googleSignIn();
    const otherEmail = await externalAuth(t, { ...body, email: uniqueEmail('claimed') });
    expect(otherEmail.statusCode).toBe(401);
    expect(otherEmail.json()).toEqual({ success: false, message: socialMessages.mismatch('google') });

    const otherId = await externalAuth(t, { ...body, providerId: '999' });
    expect(otherId.statusCode).toBe(401);
    expect(otherId.json()).toEqual({ success: false, message: socialMessages.mismatch('google') });
    expect(await usersWithEmail(t, body.email)).toHaveLength(0);
  });

  it('refuses an email Google has not verified', async () => {
    const { body, email } = await googleSignIn({ email_verified: false });
    const response = await externalAuth(t, body);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ success: false, message: socialMessages.emailNotVerified('google') });
    expect(await usersWithEmail(t, email)).toHaveLength(0);
  });

  it('asks for the email when Google shared none', async () => {
    const { body } = await googleSignIn({ email: undefined });
    const response = await externalAuth(t, { ...body, email: '' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Email is required. Please check your Google/Facebook permissions.');
  });

  it('refuses a call without any proof with 400', async () => {
    const response = await externalAuth(t, {
      firstName: 'Gina',
      lastName: 'Google',
      email: uniqueEmail(),
      provider: 'google',
      providerId: '123',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message: socialMessages.proofMissing('google') });
  });

  it('refuses an unknown provider with 400', async () => {
    const response = await externalAuth(t, { provider: 'myspace', idToken: 'x' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toHaveProperty('provider');
  });
});

describe('POST /auth/external with a Google access token (token flow)', () => {
  it('signs up through token-info and user-info, for our client id only', async () => {
    const email = uniqueEmail('token-flow');
    const accessToken = fake.googleAccessToken({
      sub: '4242424242',
      email,
      givenName: 'Tokyo',
      familyName: 'Flow',
    });
    const response = await externalAuth(t, {
      provider: 'google',
      email,
      providerId: '4242424242',
      accessToken,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      isNewUser: true,
      user: { email, firstName: 'Tokyo', providerId: '4242424242' },
    });
    const calls = fake.requests.filter((r) => r.path.startsWith('/google/') && r.path !== '/google/certs');
    expect(calls.slice(-2).map((r) => [r.path, r.status])).toEqual([
      ['/google/tokeninfo', 200],
      ['/google/userinfo', 200],
    ]);
    expect(calls.at(-1)!.headers.authorization).toBe(`Bearer ${accessToken}`);
  });

  it('refuses a token issued to another app, and an unknown or expired one', async () => {
    const email = uniqueEmail('other-app');
    const otherApp = fake.googleAccessToken({
      clientId: 'other.apps.googleusercontent.com',
      sub: '1',
      email,
    });
    const foreign = await externalAuth(t, { provider: 'google', accessToken: otherApp });
    expect(foreign.statusCode).toBe(401);
    expect(foreign.json()).toEqual(rejected('the token was issued for another app'));

    const unknown = await externalAuth(t, { provider: 'google', accessToken: 'ya29.made-up' });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual(rejected('the token is invalid or has expired'));

    const expired = fake.googleAccessToken({ sub: '2', email, expiresIn: 0 });
    expect((await externalAuth(t, { provider: 'google', accessToken: expired })).statusCode).toBe(401);
    expect(await usersWithEmail(t, email)).toHaveLength(0);
  });

  it('answers 503 (no stack, no internals) when Google fails', async () => {
    const accessToken = fake.googleAccessToken({ sub: '77', email: uniqueEmail('outage') });
    fake.failNext(1);
    const response = await externalAuth(t, { provider: 'google', accessToken });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      success: false,
      message: socialMessages.providerUnavailable('google'),
    });
  });
});

describe('Google unreachable', () => {
  it('answers 503 when Google’s keys cannot be fetched', async () => {
    const down = await createTestApp({
      env: { ...fake.env, GOOGLE_JWKS_URL: 'http://127.0.0.1:9/certs' },
    });
    try {
      const { body } = await googleSignIn();
      const response = await externalAuth(down, body);
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        success: false,
        message: socialMessages.providerUnavailable('google'),
      });
    } finally {
      await down.close();
    }
  });
});

describe('rate limit', () => {
  it('counts attempts per IP like login: the 51st in 15 minutes gets 429 with Retry-After', async () => {
    const ip = uniqueIp();
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const response = await externalAuth(t, { provider: 'google' }, ip);
      expect(response.statusCode).toBe(400);
    }
    const limited = await externalAuth(t, { provider: 'google' }, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.json().message).toBe(authMessages.tooManyAttempts(15));
    // Another address is not affected.
    expect((await externalAuth(t, { provider: 'google' })).statusCode).toBe(400);
  });
});
