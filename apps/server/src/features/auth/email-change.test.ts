import { authMessages } from '@waitlist/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.ts';
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
 * Issue 12, finding 4: ADMIN_EMAILS grants admin to a verified address only, and an email change takes
 * effect only once the code sent to the new address is entered, so nobody takes an address they do not own.
 */
const listed = uniqueEmail('listed-admin');
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: listed } });
});
afterAll(() => t.close());

const me = (token: string) => sharedMe(t, token);
const changeEmail = (token: string, email: string) => sharedChangeEmail(t, token, email);
const confirm = (token: string, code: string) => confirmEmail(t, token, code);
const wrong = wrongCode;

describe('changing to a listed admin address', () => {
  it('gives no admin while the address is pending, nor at the next start-up; its code does', async () => {
    const user = await verifiedUser(t);
    const response = await changeEmail(user.token, listed);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ email: user.email, pendingEmail: listed, admin: false });
    // The next start-up grants ADMIN_EMAILS: the pending address is not the account's.
    expect(await t.app.services.auth.grantAdmins([listed])).toEqual([]);
    expect(await me(user.token)).toMatchObject({ admin: false, email: user.email });

    const code = await latestCodeFor(t, listed);
    expect((await latestEmailTo(t, listed))?.subject).toMatch(/^Confirm your new email address/);
    expect((await confirm(user.token, wrong(code))).statusCode).toBe(400);
    expect(await me(user.token)).toMatchObject({ admin: false, email: user.email, pendingEmail: listed });

    const confirmed = await confirm(user.token, code);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({
      success: true,
      message: authMessages.emailChanged,
      user: { email: listed, pendingEmail: null, admin: true, verified: true },
    });

    // Moving off the listed address takes the list's grant with it once the new address is proved.
    const next = uniqueEmail('moved-on');
    expect((await changeEmail(user.token, next)).statusCode).toBe(200);
    expect((await me(user.token)).admin).toBe(true);
    expect((await confirm(user.token, await latestCodeFor(t, next))).json().user).toMatchObject({
      email: next,
      admin: false,
    });
  });

  it('an unverified account that switches to a listed address is still no admin until that code is entered', async () => {
    const address = uniqueEmail('unverified-switch');
    const t2 = await createTestApp({ env: { ADMIN_EMAILS: address } });
    try {
      const register = await t2.app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        payload: { firstName: 'Una', lastName: 'Verified', email: uniqueEmail(), password: 'secret123' },
        remoteAddress: uniqueIp(),
      });
      const token = register.json().token as string;
      const change = await t2.app.inject({
        method: 'PUT',
        url: '/api/v1/auth/updatedetails',
        headers: auth(token),
        payload: { firstName: 'Una', lastName: 'Verified', email: address },
      });
      expect(change.json().data).toMatchObject({ email: address, verified: false, admin: false });
      expect(await t2.app.services.auth.grantAdmins([address])).toEqual([]);
      const verify = await t2.app.inject({
        method: 'POST',
        url: '/api/v1/auth/verify-account',
        headers: auth(token),
        payload: { verificationCode: await latestCodeFor(t2, address) },
      });
      expect(verify.json().user).toMatchObject({ verified: true, admin: true });
    } finally {
      await t2.close();
    }
  });
});

describe('the pending address', () => {
  it('can be cancelled, and its code then changes nothing', async () => {
    const user = await verifiedUser(t);
    const target = uniqueEmail('cancelled');
    await changeEmail(user.token, target);
    const code = await latestCodeFor(t, target);
    const cancel = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/auth/pending-email',
      headers: auth(user.token),
    });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json()).toMatchObject({
      message: authMessages.emailChangeCancelled,
      user: { email: user.email, pendingEmail: null },
    });
    const late = await confirm(user.token, code);
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toBe(authMessages.noPendingEmail);
    expect(await me(user.token)).toMatchObject({ email: user.email, pendingEmail: null });
  });

  it('send-verification sends a new code to the pending address, never to the account’s', async () => {
    const user = await verifiedUser(t);
    const target = uniqueEmail('resend');
    await changeEmail(user.token, target);
    const first = await latestCodeFor(t, target);
    const resend = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/send-verification',
      headers: auth(user.token),
      remoteAddress: uniqueIp(),
    });
    expect(resend.statusCode).toBe(200);
    const second = await latestCodeFor(t, target);
    expect((await confirm(user.token, first)).statusCode).toBe(first === second ? 200 : 400);
    if (first !== second) expect((await confirm(user.token, second)).statusCode).toBe(200);
    expect((await me(user.token)).email).toBe(target);
  });

  it('refuses an address another account took meanwhile, with 409, and keeps the old address', async () => {
    const user = await verifiedUser(t);
    const contested = uniqueEmail('contested');
    await changeEmail(user.token, contested);
    const code = await latestCodeFor(t, contested);
    await registerUser(t, { email: contested });
    const response = await confirm(user.token, code);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(authMessages.emailTaken);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ email: user.email });
    expect((await login(t, user.email, user.password)).statusCode).toBe(200);
  });

  it('refuses to hold an address another account uses (409), and a confirm with nothing pending (400)', async () => {
    const user = await verifiedUser(t);
    const other = await verifiedUser(t);
    expect((await changeEmail(user.token, other.email)).statusCode).toBe(409);
    expect((await me(user.token)).pendingEmail).toBeNull();
    const nothing = await confirm(user.token, '123456');
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().message).toBe(authMessages.noPendingEmail);
  });
});
