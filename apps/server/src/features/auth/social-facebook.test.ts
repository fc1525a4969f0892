import { createHmac } from 'node:crypto';
import { socialMessages, validationMessages } from '@waitlist/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeIdentity, startFakeIdentity } from '../../test/fake-identity.ts';
import { createTestApp, secretsIn, type TestApp, uniqueEmail } from '../../test/test-app.ts';
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

let nextUserId = 10_000_000_000;
/** A Facebook user who granted email, their user access token, and what the page would send. */
function facebookUser(profile: { email?: string | undefined; first_name?: string } = {}) {
  nextUserId += 1;
  const userId = String(nextUserId);
  const email = 'email' in profile ? profile.email : uniqueEmail('facebook');
  const accessToken = fake.facebookToken({
    userId,
    profile: { first_name: profile.first_name ?? 'Faye', last_name: 'Book', ...(email ? { email } : {}) },
  });
  return {
    userId,
    email,
    accessToken,
    body: {
      firstName: 'Faye',
      lastName: 'Book',
      email: email ?? '',
      provider: 'facebook',
      providerId: userId,
      accessToken,
    },
  };
}

const rejected = (reason: string) => ({
  success: false,
  message: socialMessages.tokenRejected('facebook', reason),
});

describe('POST /auth/external with a Facebook access token', () => {
  it('checks the token with debug_token as our app, reads /me with appsecret_proof, and signs up', async () => {
    const { body, email, userId, accessToken } = facebookUser({ first_name: 'Fiona' });
    const before = fake.requests.length;
    const response = await externalAuth(t, body);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      success: true,
      isNewUser: true,
      message: socialMessages.signedUp,
      user: {
        email,
        firstName: 'Fiona',
        lastName: 'Book',
        verified: true,
        isExternalAuth: true,
        provider: 'facebook',
        providerId: userId,
      },
    });
    expect(secretsIn(response.json())).toEqual([]);

    const [debug, me] = fake.requests.slice(before);
    expect(debug).toMatchObject({
      path: '/facebook/debug_token',
      status: 200,
      query: { input_token: accessToken, access_token: `${fake.facebookAppId}|${fake.facebookAppSecret}` },
    });
    expect(me).toMatchObject({ path: '/facebook/me', status: 200 });
    expect(me!.query.fields).toBe('id,first_name,last_name,email');
    expect(me!.query.access_token).toBe(accessToken);
    expect(me!.query.appsecret_proof).toBe(
      createHmac('sha256', fake.facebookAppSecret).update(accessToken).digest('hex'),
    );
  });

  it('signs the same Facebook user in again', async () => {
    const { body, email } = facebookUser();
    const first = await externalAuth(t, body);
    const second = await externalAuth(t, body);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ isNewUser: false, message: socialMessages.signedIn });
    expect(second.json().user.id).toBe(first.json().user.id);
    expect(await usersWithEmail(t, email!)).toHaveLength(1);
  });

  it('refuses a token debug_token says was issued to another app', async () => {
    const email = uniqueEmail('other-app');
    const accessToken = fake.facebookToken({ appId: '1111', userId: '5', profile: { email } });
    const response = await externalAuth(t, { provider: 'facebook', email, accessToken });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(rejected('the token was issued for another app'));
    expect(await usersWithEmail(t, email)).toHaveLength(0);
  });

  it('refuses a token debug_token says is not valid, and one Facebook never issued', async () => {
    const email = uniqueEmail('invalid');
    const invalid = fake.facebookToken({ userId: '6', isValid: false, profile: { email } });
    const response = await externalAuth(t, { provider: 'facebook', accessToken: invalid });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(rejected('the token is invalid or has expired'));

    const madeUp = await externalAuth(t, { provider: 'facebook', accessToken: 'EAAB-made-up' });
    expect(madeUp.statusCode).toBe(401);
    expect(madeUp.json()).toEqual(rejected('the token is invalid or has expired'));
    expect(await usersWithEmail(t, email)).toHaveLength(0);
  });

  it('refuses a claimed email or id that is not Facebook’s', async () => {
    const { body } = facebookUser();
    const response = await externalAuth(t, { ...body, email: uniqueEmail('claimed') });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ success: false, message: socialMessages.mismatch('facebook') });
    const otherId = await externalAuth(t, { ...body, providerId: '1' });
    expect(otherId.statusCode).toBe(401);
  });

  it('answers 400 with the SPEC message when the user did not share an email', async () => {
    const { body } = facebookUser({ email: undefined });
    const response = await externalAuth(t, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(validationMessages.socialEmailRequired);
    expect(response.json().message).toBe('Email is required. Please check your Google/Facebook permissions.');
  });

  it('refuses a call without the access token', async () => {
    const response = await externalAuth(t, { provider: 'facebook', providerId: '1', email: uniqueEmail() });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message: socialMessages.proofMissing('facebook') });
  });

  it('answers 503 when the Graph API fails', async () => {
    const { body } = facebookUser();
    fake.failNext(1);
    const response = await externalAuth(t, body);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      success: false,
      message: socialMessages.providerUnavailable('facebook'),
    });
  });

  it('answers 503 (the operator’s problem, not the user’s) when Facebook refuses our app secret', async () => {
    const misconfigured = await createTestApp({ env: { ...fake.env, FACEBOOK_APP_SECRET: 'wrong-secret' } });
    try {
      const { body } = facebookUser();
      const response = await externalAuth(misconfigured, body);
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        success: false,
        message: socialMessages.providerUnavailable('facebook'),
      });
    } finally {
      await misconfigured.close();
    }
  });
});
