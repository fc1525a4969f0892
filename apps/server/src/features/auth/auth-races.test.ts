import { authMessages } from '@waitlist/contract';
import { and, count, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailVerifications, localEmails, passwordResets, users } from '../../db/schema.ts';
import { rateLimitRules } from '../../lib/rate-limit.ts';
import { burst, lateBody, statusCounts } from '../../test/race.ts';
import {
  auth,
  createTestApp,
  latestCodeFor,
  latestEmailTo,
  login,
  registerUser,
  type TestApp,
  uniqueEmail,
  uniqueIp,
  verifiedUser,
} from '../../test/test-app.ts';
import {
  confirmEmail,
  changeEmail as sharedChangeEmail,
  me as sharedMe,
  wrongCode,
} from './email-change.test-helpers.ts';

/**
 * Issue 24, the auth findings, each sent as an attacker times it (src/test/race.ts): a request whose body
 * arrives after another request changed the account, and a burst of parallel requests against every
 * throttle and code check. Runs on PGlite and on PostgreSQL.
 */
const listed = uniqueEmail('listed-admin');
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: listed } });
});
afterAll(() => t.close());

const me = (token: string) => sharedMe(t, token);
const changeEmail = (token: string, email: string) => sharedChangeEmail(t, token, email);
const adminList = (token: string) => t.app.inject({ url: '/api/v1/admin/users', headers: auth(token) });
const emailsTo = async (to: string) => {
  await t.app.outbox.drain();
  const [row] = await t.database.db
    .select({ n: count() })
    .from(localEmails)
    .where(eq(localEmails.to, to.toLowerCase()));
  return row?.n ?? 0;
};
const wrong = wrongCode;
const forgot = (email: string, remoteAddress = uniqueIp()) =>
  t.app.inject({ method: 'POST', url: '/api/v1/auth/forgotpassword', payload: { email }, remoteAddress });
const unusedResets = async (userId: string) =>
  (
    await t.database.db
      .select({ id: passwordResets.id })
      .from(passwordResets)
      .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)))
  ).length;
const resetTokenFrom = async (to: string) => {
  const email = await latestEmailTo(t, to);
  const token = email?.text.match(/reset-password\/([^\s]+)/)?.[1];
  if (!token) throw new Error(`no reset link emailed to ${to}`);
  return decodeURIComponent(token);
};
const resetPassword = (token: string, password: string) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/v1/auth/resetpassword/${encodeURIComponent(token)}`,
    payload: { password },
  });

describe('admin by a race on the email change (critical)', () => {
  it('confirm-email confirms the pending address of the locked row, never the one the session read', async () => {
    const attacker = await verifiedUser(t);
    const readable = uniqueEmail('attacker-inbox');
    expect((await changeEmail(attacker.token, listed)).statusCode).toBe(200);

    // The headers arrive while the pending address is the admin one; the body, with a code the attacker can
    // read, arrives after the pending address was changed to theirs.
    const answer = await lateBody(
      t.app,
      {
        method: 'POST',
        url: '/api/v1/auth/confirm-email',
        headers: auth(attacker.token),
        remoteAddress: uniqueIp(),
        payload: (code: string) => ({ verificationCode: code }),
      },
      async () => {
        expect((await changeEmail(attacker.token, readable)).statusCode).toBe(200);
        return latestCodeFor(t, readable);
      },
    );

    // The code proves `readable`, and that is the address confirmed: no admin, no listed address.
    expect(answer.statusCode).toBe(200);
    expect(answer.json().user).toMatchObject({ email: readable, admin: false, pendingEmail: null });
    expect(await me(attacker.token)).toMatchObject({ email: readable, admin: false });
    expect((await adminList(attacker.token)).statusCode).toBe(403);
  });

  it('verify-account computes admin from the locked row, not from the address the session read', async () => {
    // Signed up with the listed address (its code goes to the real admin's inbox, unreadable)…
    const attacker = await registerUser(t, { email: listed });
    const readable = uniqueEmail('attacker-inbox');
    const answer = await lateBody(
      t.app,
      {
        method: 'POST',
        url: '/api/v1/auth/verify-account',
        headers: auth(attacker.token),
        remoteAddress: uniqueIp(),
        payload: (code: string) => ({ verificationCode: code }),
      },
      async () => {
        // …then, while the verification's body is on its way, replaced by one the attacker reads.
        expect((await changeEmail(attacker.token, readable)).statusCode).toBe(200);
        return latestCodeFor(t, readable);
      },
    );
    expect(answer.statusCode).toBe(200);
    expect(answer.json().user).toMatchObject({ email: readable, verified: true, admin: false });
    expect((await adminList(attacker.token)).statusCode).toBe(403);
    // The listed address is free again, and its real owner still becomes admin when they verify it.
    const real = await verifiedUser(t, { email: listed });
    expect(real.user).toMatchObject({ email: listed, admin: true });
    await t.database.db.delete(users).where(eq(users.email, listed));
  });

  it('a code is bound to the address it was sent to: the same code does not confirm another one', async () => {
    const owner = await verifiedUser(t);
    const first = uniqueEmail('first');
    expect((await changeEmail(owner.token, first)).statusCode).toBe(200);
    const code = await latestCodeFor(t, first);
    const [stored] = await t.database.db
      .select({ email: emailVerifications.email })
      .from(emailVerifications)
      .where(eq(emailVerifications.userId, owner.id));
    expect(stored?.email).toBe(first);
    // The row's pending address is moved without a new code (what a racing writer would leave behind).
    await t.database.db.update(users).set({ pendingEmail: listed }).where(eq(users.id, owner.id));
    const answer = await confirmEmail(t, owner.token, code);
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toBe(authMessages.codeForOtherAddress);
    expect(await me(owner.token)).toMatchObject({ email: owner.email, admin: false });
  });

  it('a burst of confirmations with one code changes the address once', async () => {
    const owner = await verifiedUser(t);
    const next = uniqueEmail('next');
    expect((await changeEmail(owner.token, next)).statusCode).toBe(200);
    const code = await latestCodeFor(t, next);
    const answers = await burst(t.app, 8, () => ({
      method: 'POST',
      url: '/api/v1/auth/confirm-email',
      headers: auth(owner.token),
      payload: { verificationCode: code },
      remoteAddress: uniqueIp(),
    }));
    expect(statusCounts(answers)[200]).toBe(1);
    expect(await me(owner.token)).toMatchObject({ email: next, pendingEmail: null });
  });
});

describe('throttles under a parallel burst', () => {
  it('login: 150 parallel wrong passwords from one address try at most 10; the owner still signs in elsewhere', async () => {
    const owner = await verifiedUser(t);
    const attacker = uniqueIp();
    const answers = await burst(t.app, 150, () => ({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: owner.email, password: 'wrong-password' },
      remoteAddress: attacker,
    }));
    expect(statusCounts(answers)).toEqual({
      401: rateLimitRules.loginAccountIp.points,
      429: 150 - rateLimitRules.loginAccountIp.points,
    });
    expect((await login(t, owner.email, owner.password)).statusCode).toBe(200);
    // A success gives its point back: the owner's own sign-ins never use up the account's ceiling.
    for (let n = 0; n < 3; n++) expect((await login(t, owner.email, owner.password)).statusCode).toBe(200);
  });

  it('login: a burst over many accounts from one address meets the address limit of 50', async () => {
    const attacker = uniqueIp();
    const answers = await burst(t.app, 80, (index) => ({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: `nobody${index}.${Date.now()}@example.com`, password: 'wrong-password' },
      remoteAddress: attacker,
    }));
    expect(statusCounts(answers)).toEqual({ 401: 50, 429: 30 });
  });

  it('updatepassword: wrong current passwords meet the login throttle, in a burst as in a sequence', async () => {
    const owner = await verifiedUser(t);
    const attacker = uniqueIp();
    const answers = await burst(t.app, 30, () => ({
      method: 'PUT',
      url: '/api/v1/auth/updatepassword',
      headers: auth(owner.token),
      payload: { currentPassword: 'wrong-password', newPassword: 'another123' },
      remoteAddress: attacker,
    }));
    expect(statusCounts(answers)).toEqual({ 401: 10, 429: 20 });
    const again = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/auth/updatepassword',
      headers: auth(owner.token),
      payload: { currentPassword: owner.password, newPassword: 'another123' },
      remoteAddress: attacker,
    });
    expect(again.statusCode).toBe(429);
    // From another address the right current password still works.
    const elsewhere = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/auth/updatepassword',
      headers: auth(owner.token),
      payload: { currentPassword: owner.password, newPassword: 'another123' },
      remoteAddress: uniqueIp(),
    });
    expect(elsewhere.statusCode).toBe(200);
  });

  it('forgotpassword: a burst never answers 429 for the account and sends at most 3 emails; the owner still gets one', async () => {
    const owner = await verifiedUser(t);
    const before = await emailsTo(owner.email);
    const attacker = uniqueIp();
    const answers = await burst(t.app, 9, () => ({
      method: 'POST',
      url: '/api/v1/auth/forgotpassword',
      payload: { email: owner.email },
      remoteAddress: attacker,
    }));
    expect(statusCounts(answers)).toEqual({ 200: 9 });
    expect(await emailsTo(owner.email)).toBe(before + 3);
    expect((await forgot(owner.email)).statusCode).toBe(200);
    expect(await emailsTo(owner.email)).toBe(before + 4);
  });

  it('send-verification: a burst sends at most the account budget of codes', async () => {
    const owner = await registerUser(t);
    const before = await emailsTo(owner.email);
    const answers = await burst(t.app, 12, () => ({
      method: 'POST',
      url: '/api/v1/auth/send-verification',
      headers: auth(owner.token),
      remoteAddress: uniqueIp(),
    }));
    expect(statusCounts(answers)).toEqual({ 200: 5, 429: 7 });
    expect(await emailsTo(owner.email)).toBe(before + 5);
  });

  it('verify-account: a burst of wrong guesses burns the code after 5, and the right code is then refused', async () => {
    const owner = await registerUser(t);
    const code = await latestCodeFor(t, owner.email);
    // 9 in all with the right one below: within the account's 10 guesses, so the code check alone decides.
    const answers = await burst(t.app, 8, () => ({
      method: 'POST',
      url: '/api/v1/auth/verify-account',
      headers: auth(owner.token),
      payload: { verificationCode: wrong(code) },
      remoteAddress: uniqueIp(),
    }));
    expect(statusCounts(answers)).toEqual({ 400: 8 });
    const [row] = await t.database.db
      .select({ failed: emailVerifications.failedAttempts })
      .from(emailVerifications)
      .where(eq(emailVerifications.userId, owner.id));
    expect(row?.failed).toBe(5);
    const right = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/verify-account',
      headers: auth(owner.token),
      payload: { verificationCode: code },
      remoteAddress: uniqueIp(),
    });
    expect(right.statusCode).toBe(400);
    expect(right.json().message).toBe(authMessages.codeBurned);
  });

  it('register: a burst from one address creates at most SIGNUP_LIMIT_PER_HOUR accounts', async () => {
    const attacker = uniqueIp();
    const answers = await burst(t.app, 15, () => ({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { firstName: 'B', lastName: 'R', email: uniqueEmail('burst'), password: 'secret123' },
      remoteAddress: attacker,
    }));
    expect(statusCounts(answers)).toEqual({ 201: 10, 429: 5 });
  });
});

describe('email bombing (low)', () => {
  it('accounts together cannot send more than 6 code emails an hour to an address that never signed up', async () => {
    const victim = uniqueEmail('victim');
    const answers = [];
    for (let n = 0; n < 8; n++) {
      const account = await registerUser(t);
      // An unverified account's change replaces its address and sends the new one a code; then it moves on,
      // freeing the address for the next account.
      answers.push((await changeEmail(account.token, victim)).statusCode);
      await changeEmail(account.token, uniqueEmail('moved-on'));
    }
    expect(rateLimitRules.codeEmailRecipient.points).toBe(6);
    expect(answers).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    expect(await emailsTo(victim)).toBe(6);
  });
});

describe('reset links after a change (low)', () => {
  it('a password change revokes every unused reset link', async () => {
    const owner = await verifiedUser(t);
    expect((await forgot(owner.email)).statusCode).toBe(200);
    const token = await resetTokenFrom(owner.email);
    expect(await unusedResets(owner.id)).toBe(1);
    const change = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/auth/updatepassword',
      headers: auth(owner.token),
      payload: { currentPassword: owner.password, newPassword: 'changed123' },
      remoteAddress: uniqueIp(),
    });
    expect(change.statusCode).toBe(200);
    expect(await unusedResets(owner.id)).toBe(0);
    const reset = await resetPassword(token, 'attacker123');
    expect(reset.statusCode).toBe(400);
    expect((await login(t, owner.email, 'changed123')).statusCode).toBe(200);
  });

  it('a confirmed email change revokes every unused reset link', async () => {
    const owner = await verifiedUser(t);
    expect((await forgot(owner.email)).statusCode).toBe(200);
    const token = await resetTokenFrom(owner.email);
    const next = uniqueEmail('moved');
    expect((await changeEmail(owner.token, next)).statusCode).toBe(200);
    // Pending only: the old address is still the account's, and so is its link.
    expect(await unusedResets(owner.id)).toBe(1);
    const confirm = await confirmEmail(t, owner.token, await latestCodeFor(t, next));
    expect(confirm.statusCode).toBe(200);
    expect((await resetPassword(token, 'attacker123')).statusCode).toBe(400);
    expect((await login(t, next, owner.password)).statusCode).toBe(200);
  });
});
