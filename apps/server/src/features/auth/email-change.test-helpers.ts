import { auth, type TestApp, uniqueIp } from '../../test/test-app.ts';

/** The account as GET /auth/me answers it. */
export const me = async (t: TestApp, token: string) =>
  (await t.app.inject({ url: '/api/v1/auth/me', headers: auth(token) })).json().data;

/** Asks for a new email address through the profile form (pending on a verified account, replaced otherwise). */
export const changeEmail = (t: TestApp, token: string, email: string) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/v1/auth/updatedetails',
    headers: auth(token),
    payload: { firstName: 'Bella', lastName: 'Rossi', email },
    remoteAddress: uniqueIp(),
  });

/** Enters a code for the pending new address. */
export const confirmEmail = (t: TestApp, token: string, verificationCode: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/confirm-email',
    headers: auth(token),
    payload: { verificationCode },
    remoteAddress: uniqueIp(),
  });

/** A code that is not the right one. */
export const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
