import { createHash, randomBytes } from 'node:crypto';
import { socialMessages } from '@waitlist/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeIdentity, startFakeIdentity, tamperPayload } from '../../test/fake-identity.ts';
import { createTestApp, type TestApp, uniqueEmail } from '../../test/test-app.ts';
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
  message: socialMessages.tokenRejected('apple', reason),
});
const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * An Apple sign-in as the page makes it: a raw nonce, given to Apple as is (or hashed, `hashNonce`), the
 * identity token Apple returns, and the name Apple showed the page on the first sign-in.
 */
async function appleSignIn(
  claims: Record<string, unknown> = {},
  options: { hashNonce?: boolean; expiresIn?: number } = {},
) {
  const email = uniqueEmail('apple');
  const nonce = randomBytes(16).toString('hex');
  const sub = `001234.${randomBytes(16).toString('hex')}.0999`;
  const idToken = await fake.appleIdToken(
    { sub, email, nonce: options.hashNonce ? sha256Hex(nonce) : nonce, ...claims },
    { now: t.clock.now(), expiresIn: options.expiresIn },
  );
  return {
    email,
    sub,
    nonce,
    idToken,
    body: { firstName: 'Adam', lastName: 'Apple', email, provider: 'apple', providerId: sub, idToken, nonce },
  };
}

describe('POST /auth/external with an Apple identity token', () => {
  it('asks a new owner for a phone number first, and creates nothing until it comes', async () => {
    const { body, email } = await appleSignIn();
    const response = await externalAuth(t, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('Phone number is required');
    expect(response.json()).toEqual({
      success: false,
      message: socialMessages.phoneRequired,
      errors: { phoneNumber: socialMessages.phoneRequired },
    });
    expect(await usersWithEmail(t, email)).toHaveLength(0);
  });

  it('with the phone number, signs up with the name the page sent and the phone in E.164', async () => {
    const { body, email, sub } = await appleSignIn();
    const response = await externalAuth(t, { ...body, phoneNumber: '(212) 555-0123' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      success: true,
      isNewUser: true,
      message: socialMessages.signedUp,
      user: {
        email,
        firstName: 'Adam',
        lastName: 'Apple',
        phoneNumber: '+12125550123',
        verified: true,
        isExternalAuth: true,
        provider: 'apple',
        providerId: sub,
      },
    });

    // Later sign-ins: Apple sends no name and the page no phone; the account is found by its subject.
    const again = await fake.appleIdToken({ sub, email, nonce: 'second-nonce' }, { now: t.clock.now() });
    const second = await externalAuth(t, { provider: 'apple', idToken: again, nonce: 'second-nonce' });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ isNewUser: false, message: socialMessages.signedIn });
    expect(second.json().user).toMatchObject({ id: response.json().user.id, firstName: 'Adam' });
  });

  it('refuses a phone number that is not one', async () => {
    const { body } = await appleSignIn();
    const response = await externalAuth(t, { ...body, phoneNumber: '12' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      success: false,
      message: socialMessages.phoneInvalid,
      errors: { phoneNumber: socialMessages.phoneInvalid },
    });
  });

  it('accepts a token whose nonce is the SHA-256 (hex) of the raw nonce the page sends', async () => {
    const { body } = await appleSignIn({}, { hashNonce: true });
    const response = await externalAuth(t, { ...body, phoneNumber: '+1 212 555 0124' });
    expect(response.statusCode).toBe(200);
  });

  it('refuses a token whose nonce is not this sign-in’s (a replayed token)', async () => {
    const { body, email } = await appleSignIn();
    const response = await externalAuth(t, {
      ...body,
      nonce: 'another-page-nonce',
      phoneNumber: '2125550125',
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(rejected('the token nonce does not match this sign-in'));
    expect(await usersWithEmail(t, email)).toHaveLength(0);
  });

  it('refuses a token carrying a nonce when the page sent none', async () => {
    const { body } = await appleSignIn();
    const { nonce: _left, ...withoutNonce } = body;
    const response = await externalAuth(t, { ...withoutNonce, phoneNumber: '2125550126' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(rejected('the sign-in nonce is missing'));
  });

  it('refuses a token without a nonce on a platform that supports them', async () => {
    const { body } = await appleSignIn({ nonce: undefined });
    const response = await externalAuth(t, { ...body, phoneNumber: '2125550127' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(rejected('the token carries no nonce'));
  });

  it.each([
    ['wrong audience', { aud: 'com.someone.else' }, {}, 'the token was issued for another app'],
    ['wrong issuer', { iss: 'https://accounts.google.com' }, {}, 'the token was not issued by Apple'],
    ['expired', {}, { expiresIn: -600 }, 'the token has expired'],
  ])('refuses a token with the %s', async (_case, claims, options, reason) => {
    const { body } = await appleSignIn(claims, options);
    const response = await externalAuth(t, { ...body, phoneNumber: '2125550128' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(rejected(reason));
  });

  it('refuses a tampered token, a forged one and one with an unknown key id', async () => {
    const { body } = await appleSignIn();
    const tampered = tamperPayload(body.idToken, (payload) => ({ ...payload, email: uniqueEmail('victim') }));
    const edited = await externalAuth(t, {
      ...body,
      email: '',
      idToken: tampered,
      phoneNumber: '2125550129',
    });
    expect(edited.json()).toEqual(rejected('the token signature is invalid'));

    const forged = await fake.appleIdToken({ nonce: body.nonce }, { now: t.clock.now(), rogue: true });
    const forgedAnswer = await externalAuth(t, { provider: 'apple', idToken: forged, nonce: body.nonce });
    expect(forgedAnswer.statusCode).toBe(401);
    expect(forgedAnswer.json()).toEqual(rejected('the token signature is invalid'));

    const unknownKid = await fake.appleIdToken({ nonce: body.nonce }, { now: t.clock.now(), kid: 'retired' });
    const unknownAnswer = await externalAuth(t, {
      provider: 'apple',
      idToken: unknownKid,
      nonce: body.nonce,
    });
    expect(unknownAnswer.statusCode).toBe(401);
    expect(unknownAnswer.json()).toEqual(rejected('the token was signed with an unknown key'));
  });

  it('refuses an email Apple reports as unverified (email_verified "false")', async () => {
    const { body } = await appleSignIn({ email_verified: 'false' });
    const response = await externalAuth(t, { ...body, phoneNumber: '2125550130' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ success: false, message: socialMessages.emailNotVerified('apple') });
  });

  it('refuses a call without the identity token', async () => {
    const response = await externalAuth(t, { provider: 'apple', email: uniqueEmail(), providerId: 'x' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message: socialMessages.proofMissing('apple') });
  });
});
