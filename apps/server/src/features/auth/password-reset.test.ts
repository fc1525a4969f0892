import { authMessages, screenMessages, validationMessages } from '@waitlist/contract';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localEmails, passwordResets, users } from '../../db/schema.ts';
import {
  auth,
  createTestApp,
  latestEmailTo,
  login,
  registerUser,
  type TestApp,
  uniqueEmail,
  uniqueIp,
} from '../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const forgot = (email: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/forgotpassword',
    payload: { email },
    remoteAddress: uniqueIp(),
  });
const reset = (token: string, payload: unknown) =>
  t.app.inject({ method: 'PUT', url: `/api/v1/auth/resetpassword/${token}`, payload: payload as object });

async function emailCount() {
  await t.app.outbox.drain();
  const [row] = await t.database.db.select({ n: count() }).from(localEmails);
  return row!.n;
}

/** Asks for a reset link and returns the token from the emailed link. */
async function resetTokenFor(email: string): Promise<string> {
  // Earlier email (the verification code) is delivered first, so the newest one is the reset link: the
  // outbox may deliver a batch in any order.
  await t.app.outbox.drain();
  expect((await forgot(email)).statusCode).toBe(200);
  const message = await latestEmailTo(t, email);
  const match = message?.text.match(/http:\/\/app\.test\/reset-password\/([\w-]+)/);
  if (!match) throw new Error(`no reset link emailed to ${email}`);
  return match[1]!;
}

describe('POST /auth/forgotpassword', () => {
  it('answers the same for an existing and an unknown email, and emails a link only to the existing one', async () => {
    const owner = await registerUser(t);
    const stranger = uniqueEmail('stranger');
    await t.app.outbox.drain();
    const before = await emailCount();

    const known = await forgot(owner.email.toUpperCase());
    const unknown = await forgot(stranger);
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    expect(known.json()).toEqual({ success: true, message: screenMessages.forgotPasswordSent });

    expect(await emailCount()).toBe(before + 1);
    expect(await latestEmailTo(t, stranger)).toBeUndefined();
    const email = await latestEmailTo(t, owner.email);
    expect(email?.subject).toBe('Reset your password');
    // The link is ${PUBLIC_URL}/reset-password/<token>, in the text and in the html button.
    const link = email!.text.match(/(\S+\/reset-password\/\S+)/)?.[1];
    expect(link).toMatch(/^http:\/\/app\.test\/reset-password\/[\w-]{40,}$/);
    expect(email!.html).toContain(`href="${link}"`);
    // Only the token's hash is stored.
    const [row] = await t.database.db
      .select()
      .from(passwordResets)
      .where(eq(passwordResets.userId, owner.id));
    expect(row!.tokenHash).not.toBe(link!.split('/').pop());
  });

  it.each([
    [{}, validationMessages.emailRequired],
    [{ email: '' }, validationMessages.emailRequired],
    [{ email: 'nope' }, validationMessages.emailInvalid],
  ])('refuses %j with 400 "%s" and sends nothing', async (payload, message) => {
    const before = await emailCount();
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/auth/forgotpassword', payload });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message, errors: { email: message } });
    expect(await emailCount()).toBe(before);
  });
});

describe('PUT /auth/resetpassword/:resettoken', () => {
  it('sets the new password: the new one signs in, the old one no longer does', async () => {
    const owner = await registerUser(t);
    const token = await resetTokenFor(owner.email);
    const response = await reset(token, { password: 'fresh-pass-1' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: screenMessages.passwordResetSuccess });
    expect((await login(t, owner.email, 'fresh-pass-1')).statusCode).toBe(200);
    expect((await login(t, owner.email, owner.password)).statusCode).toBe(401);
  });

  it('a token works only once', async () => {
    const owner = await registerUser(t);
    const token = await resetTokenFor(owner.email);
    expect((await reset(token, { password: 'first-pass' })).statusCode).toBe(200);
    const again = await reset(token, { password: 'second-pass' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ success: false, message: authMessages.resetTokenInvalid });
    expect((await login(t, owner.email, 'first-pass')).statusCode).toBe(200);
    expect((await login(t, owner.email, 'second-pass')).statusCode).toBe(401);
  });

  it('using one link voids the other unused links of that user', async () => {
    const owner = await registerUser(t);
    const older = await resetTokenFor(owner.email);
    const newer = await resetTokenFor(owner.email);
    expect(older).not.toBe(newer);
    expect((await reset(newer, { password: 'newer-pass' })).statusCode).toBe(200);
    expect((await reset(older, { password: 'older-pass' })).statusCode).toBe(400);
  });

  it('a token expires after one hour', async () => {
    const owner = await registerUser(t);
    const stillGood = await resetTokenFor(owner.email);
    t.clock.advance(59 * 60_000);
    // Within the hour: valid (checked on a second link so the first stays unused).
    const expiring = await resetTokenFor(owner.email);
    t.clock.advance(60_000);
    const expired = await reset(stillGood, { password: 'too-late-1' });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toBe(authMessages.resetTokenInvalid);
    expect((await reset(expiring, { password: 'in-time-1' })).statusCode).toBe(200);
    expect((await login(t, owner.email, 'in-time-1')).statusCode).toBe(200);
  });

  it('refuses a wrong token with 400 and changes nothing', async () => {
    const owner = await registerUser(t);
    await resetTokenFor(owner.email);
    const response = await reset('x'.repeat(43), { password: 'hacked-pass' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message: authMessages.resetTokenInvalid });
    expect((await login(t, owner.email, owner.password)).statusCode).toBe(200);
  });

  it.each([
    [{}, validationMessages.passwordRequired],
    [{ password: '' }, validationMessages.passwordRequired],
    [{ password: '12345' }, validationMessages.passwordTooShort],
  ])('refuses %j with 400 "%s" and leaves the token usable', async (payload, message) => {
    const owner = await registerUser(t);
    const token = await resetTokenFor(owner.email);
    const response = await reset(token, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message, errors: { password: message } });
    expect((await login(t, owner.email, owner.password)).statusCode).toBe(200);
    expect((await reset(token, { password: '123456' })).statusCode).toBe(200);
  });
});

describe('the "Your password was changed" email (issue 27)', () => {
  const updatePassword = (token: string, currentPassword: string, newPassword: string) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/v1/auth/updatepassword',
      headers: auth(token),
      payload: { currentPassword, newPassword },
      remoteAddress: uniqueIp(),
    });

  /** The email's "when", as the owner reads it: the clock's time in their time zone. */
  async function changedAtFor(userId: string) {
    const [row] = await t.database.db.select().from(users).where(eq(users.id, userId));
    return new Intl.DateTimeFormat('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
      timeZone: row!.timeZone,
    }).format(t.clock.now());
  }

  function expectPasswordChangedEmail(
    email: { subject: string; text: string; html: string } | undefined,
    when: string,
  ) {
    expect(email?.subject).toBe('Your password was changed');
    expect(email!.text).toContain(`changed on ${when}`);
    expect(email!.text).toContain('If this was not you, reset your password at once');
    expect(email!.text).toContain('http://app.test/forgot-password');
    expect(email!.text).toContain('contact our support team');
    expect(email!.html).toContain('href="http://app.test/forgot-password"');
  }

  it('is sent after a reset, saying when and what to do if it was not them', async () => {
    const owner = await registerUser(t);
    const token = await resetTokenFor(owner.email);
    expect((await reset(token, { password: 'reset-pass-1' })).statusCode).toBe(200);
    expectPasswordChangedEmail(await latestEmailTo(t, owner.email), await changedAtFor(owner.id));
  });

  it('is sent after a change with the current password', async () => {
    const owner = await registerUser(t);
    await t.app.outbox.drain();
    expect((await updatePassword(owner.token, owner.password, 'changed-pass-1')).statusCode).toBe(200);
    expectPasswordChangedEmail(await latestEmailTo(t, owner.email), await changedAtFor(owner.id));
  });

  it('is not sent when the change fails (wrong current password) or the reset token is wrong', async () => {
    const owner = await registerUser(t);
    await resetTokenFor(owner.email);
    const before = await emailCount();
    const wrong = await updatePassword(owner.token, 'not-my-password', 'changed-pass-2');
    expect(wrong.statusCode).toBe(401);
    expect((await reset('x'.repeat(43), { password: 'hacked-pass' })).statusCode).toBe(400);
    expect(await emailCount()).toBe(before);
    expect((await latestEmailTo(t, owner.email))?.subject).toBe('Reset your password');
  });
});
