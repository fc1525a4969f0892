import { authMessages, screenMessages, validationMessages } from '@waitlist/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailVerifications, users } from '../../db/schema.ts';
import {
  auth,
  createTestApp,
  latestCodeFor,
  registerUser,
  secretsIn,
  type TestApp,
  uniqueIp,
} from '../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

// Each call comes from its own address so the per-IP limits (rate-limit.test.ts) stay out of the way.
const verify = (token: string, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/verify-account',
    headers: auth(token),
    payload: payload as object,
    remoteAddress: uniqueIp(),
  });
const sendVerification = (token: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/send-verification',
    headers: auth(token),
    remoteAddress: uniqueIp(),
  });
const me = async (token: string) =>
  (await t.app.inject({ url: '/api/v1/auth/me', headers: auth(token) })).json().data;
const userRow = async (id: string) => (await t.database.db.select().from(users).where(eq(users.id, id)))[0]!;
const pendingCode = async (userId: string) =>
  (await t.database.db.select().from(emailVerifications).where(eq(emailVerifications.userId, userId)))[0];
/** A 6-digit code that is not `code`. */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
let unverified: Awaited<ReturnType<typeof registerUser>> | undefined;
/** One unverified user for the tests that must not change it (validation), to save password hashing. */
async function sharedUnverified() {
  unverified ??= await registerUser(t);
  return unverified;
}
const refusal = (message: string) => ({ success: false, message, errors: { verificationCode: message } });

describe('POST /auth/verify-account', () => {
  it('verifies the account with the emailed code, removes the code and returns the user without secrets', async () => {
    const owner = await registerUser(t);
    const code = await latestCodeFor(t, owner.email);
    // Only the code's hash (SHA-256) is stored.
    expect((await pendingCode(owner.id))!.codeHash).toMatch(/^[0-9a-f]{64}$/);

    const response = await verify(owner.token, { verificationCode: ` ${code} ` });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      success: true,
      message: screenMessages.accountVerified,
      user: { id: owner.id, email: owner.email, verified: true },
    });
    expect(secretsIn(body)).toEqual([]);
    expect((await me(owner.token)).verified).toBe(true);
    expect(await pendingCode(owner.id)).toBeUndefined();

    // A verified account has nothing left to verify or resend.
    const again = await verify(owner.token, { verificationCode: code });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ success: false, message: authMessages.alreadyVerified });
    const resend = await sendVerification(owner.token);
    expect(resend.statusCode).toBe(400);
    expect(resend.json()).toEqual({ success: false, message: authMessages.alreadyVerified });
  });

  it('counts down the attempts left, then burns the code after 5 wrong tries, even for the right code', async () => {
    const owner = await registerUser(t);
    const code = await latestCodeFor(t, owner.email);
    for (const left of [4, 3, 2]) {
      const response = await verify(owner.token, { verificationCode: wrong(code) });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(refusal(`Invalid verification code. ${left} attempts left.`));
    }
    const lastChance = await verify(owner.token, { verificationCode: wrong(code) });
    expect(lastChance.json()).toEqual(refusal('Invalid verification code. 1 attempt left.'));
    const fifth = await verify(owner.token, { verificationCode: wrong(code) });
    expect(fifth.statusCode).toBe(400);
    expect(fifth.json()).toEqual(refusal(authMessages.codeBurned));

    const right = await verify(owner.token, { verificationCode: code });
    expect(right.statusCode).toBe(400);
    expect(right.json()).toEqual(refusal(authMessages.codeBurned));
    expect((await userRow(owner.id)).verified).toBe(false);

    // A new code starts over with 5 attempts and works.
    expect((await sendVerification(owner.token)).statusCode).toBe(200);
    const fresh = await latestCodeFor(t, owner.email);
    expect((await pendingCode(owner.id))!.failedAttempts).toBe(0);
    expect((await verify(owner.token, { verificationCode: fresh })).statusCode).toBe(200);
  });

  it('a code expires 10 minutes after it was sent', async () => {
    const owner = await registerUser(t);
    const code = await latestCodeFor(t, owner.email);
    t.clock.advance(10 * 60_000 - 1000);
    // Still live a second before: a wrong guess is judged as wrong, not as expired.
    const early = await verify(owner.token, { verificationCode: wrong(code) });
    expect(early.json().message).toBe('Invalid verification code. 4 attempts left.');
    t.clock.advance(1000);
    const late = await verify(owner.token, { verificationCode: code });
    expect(late.statusCode).toBe(400);
    expect(late.json()).toEqual(refusal(authMessages.codeExpired));
    expect((await userRow(owner.id)).verified).toBe(false);
  });

  it.each([
    [{}, validationMessages.verificationCodeRequired],
    [{ verificationCode: '' }, validationMessages.verificationCodeRequired],
    [{ verificationCode: '   ' }, validationMessages.verificationCodeRequired],
    [{ verificationCode: 123456 }, validationMessages.verificationCodeRequired],
    [{ verificationCode: '12345' }, validationMessages.verificationCodeLength],
    [{ verificationCode: '1234567' }, validationMessages.verificationCodeLength],
    [{ verificationCode: '12a456' }, validationMessages.verificationCodeLength],
  ])('refuses %j with 400 "%s" without spending an attempt', async (payload, message) => {
    const owner = await sharedUnverified();
    const response = await verify(owner.token, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(refusal(message));
    expect((await pendingCode(owner.id))!.failedAttempts).toBe(0);
  });

  it('answers 401 to a visitor', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/verify-account',
      payload: { verificationCode: '123456' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ success: false, message: authMessages.notAuthenticated });
  });
});

describe('POST /auth/send-verification', () => {
  it('emails a new code that replaces the old one: the old code is refused, the new one verifies', async () => {
    const owner = await registerUser(t);
    const first = await latestCodeFor(t, owner.email);
    let second: string;
    do {
      // A new code may (one time in a million) repeat the old one; ask again until it differs.
      const response = await sendVerification(owner.token);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ success: true, message: screenMessages.newCodeSent });
      second = await latestCodeFor(t, owner.email);
    } while (second === first);
    expect(second).toMatch(/^\d{6}$/);

    const old = await verify(owner.token, { verificationCode: first });
    expect(old.statusCode).toBe(400);
    expect(old.json()).toEqual(refusal('Invalid verification code. 4 attempts left.'));
    const fresh = await verify(owner.token, { verificationCode: second });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().user.verified).toBe(true);
  });

  it('gives the new code a fresh 10 minutes', async () => {
    const owner = await registerUser(t);
    t.clock.advance(9 * 60_000);
    expect((await sendVerification(owner.token)).statusCode).toBe(200);
    const code = await latestCodeFor(t, owner.email);
    t.clock.advance(9 * 60_000);
    expect((await verify(owner.token, { verificationCode: code })).statusCode).toBe(200);
  });

  it('answers 401 to a visitor and sends nothing', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/auth/send-verification' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ success: false, message: authMessages.notAuthenticated });
  });
});

describe('POST /auth/business-verification', () => {
  const submit = (token: string | undefined, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/business-verification',
      headers: token ? auth(token) : {},
      payload: payload as object,
    });
  let verified: Awaited<ReturnType<typeof registerUser>> | undefined;
  async function verifiedUser() {
    if (verified) return verified;
    const owner = await registerUser(t);
    const code = await latestCodeFor(t, owner.email);
    expect((await verify(owner.token, { verificationCode: code })).statusCode).toBe(200);
    verified = owner;
    return owner;
  }
  const valid = { businessName: 'Bella Salon', businessPhone: '(555) 123-4567' };

  it('answers 401 to a visitor', async () => {
    const response = await submit(undefined, valid);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ success: false, message: authMessages.notAuthenticated });
  });

  it('answers 403 until the email is verified, and stores nothing', async () => {
    const owner = await sharedUnverified();
    const response = await submit(owner.token, valid);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ success: false, message: authMessages.notVerified });
    const row = await userRow(owner.id);
    expect(row).toMatchObject({ businessName: '', businessPhone: '', businessVerificationStatus: null });
  });

  it.each([['(555) 123-4567'], ['555-123-4567'], ['555.123.4567'], [' 555 123 4567 '], ['5551234567']])(
    'accepts the phone %j, stores it as 10 digits and marks the business submitted',
    async (phone) => {
      const owner = await verifiedUser();
      const response = await submit(owner.token, { businessName: '  Bella Salon ', businessPhone: phone });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ success: true, message: authMessages.businessSubmitted });
      expect(secretsIn(response.json())).toEqual([]);

      const row = await userRow(owner.id);
      expect(row).toMatchObject({
        businessName: 'Bella Salon',
        businessPhone: '5551234567',
        businessVerificationStatus: 'submitted',
      });
      const user = await me(owner.token);
      expect(user).toMatchObject({
        businessName: 'Bella Salon',
        businessPhone: '5551234567',
        businessVerification: { status: 'submitted', businessPhone: '5551234567' },
      });
    },
  );

  it.each([
    [{ businessPhone: '5551234567' }, 'businessName', validationMessages.businessNameRequired],
    [
      { businessName: '   ', businessPhone: '5551234567' },
      'businessName',
      validationMessages.businessNameRequired,
    ],
    [{ businessName: 'Bella Salon' }, 'businessPhone', validationMessages.businessPhoneRequired],
    [
      { businessName: 'Bella Salon', businessPhone: '' },
      'businessPhone',
      validationMessages.businessPhoneRequired,
    ],
    [
      { businessName: 'Bella Salon', businessPhone: 5551234567 },
      'businessPhone',
      validationMessages.businessPhoneRequired,
    ],
    [
      { businessName: 'Bella Salon', businessPhone: '555-1234' },
      'businessPhone',
      validationMessages.businessPhoneInvalid,
    ],
    [
      { businessName: 'Bella Salon', businessPhone: '555123456' },
      'businessPhone',
      validationMessages.businessPhoneInvalid,
    ],
    [
      { businessName: 'Bella Salon', businessPhone: '55512345678' },
      'businessPhone',
      validationMessages.businessPhoneInvalid,
    ],
    [
      { businessName: 'Bella Salon', businessPhone: 'call me' },
      'businessPhone',
      validationMessages.businessPhoneInvalid,
    ],
  ])('refuses %j with 400 "%s: %s" and changes nothing', async (payload, field, message) => {
    const owner = await verifiedUser();
    const before = await userRow(owner.id);
    const response = await submit(owner.token, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message, errors: { [field]: message } });
    expect(await userRow(owner.id)).toEqual(before);
  });

  it('reports both missing fields at once', async () => {
    const owner = await verifiedUser();
    const response = await submit(owner.token, {});
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({
      businessName: validationMessages.businessNameRequired,
      businessPhone: validationMessages.businessPhoneRequired,
    });
  });

  it('refuses a business name over 120 characters', async () => {
    const owner = await verifiedUser();
    const response = await submit(owner.token, {
      businessName: 'B'.repeat(121),
      businessPhone: '5551234567',
    });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().errors)).toEqual(['businessName']);
    expect(
      (await submit(owner.token, { businessName: 'B'.repeat(120), businessPhone: '5551234567' })).statusCode,
    ).toBe(200);
  });
});
