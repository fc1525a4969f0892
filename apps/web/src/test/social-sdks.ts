import { fireEvent, waitFor } from '@testing-library/react';
import { vi } from 'vitest';
import type {
  AppleSignInResponse,
  FacebookLoginResponse,
  FacebookMe,
  GoogleButtonConfiguration,
  GoogleCredentialResponse,
  GoogleIdConfiguration,
} from '../features/auth/providers/sdk-globals.ts';
import type { MockAnswer } from './mock-api.ts';

/**
 * The three sign-in SDKs are scripts from Google, Facebook and Apple: outside the machine. Tests put a
 * stand-in for each on `window` (where the real script would put it) and play the browser's part by
 * firing the <script> element's load or error event.
 */

export const sdkSrc = {
  google: 'https://accounts.google.com/gsi/client',
  facebook: 'https://connect.facebook.net/en_US/sdk.js',
  apple: 'https://appleid.cdn-apple.com/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js',
} as const;

export const injectedScripts = () =>
  Array.from(document.querySelectorAll<HTMLScriptElement>('script[src]'), (script) => script.src);

/** GET /config for a server with these providers configured. */
export function configWith(ids: {
  googleClientId?: string;
  facebookAppId?: string;
  appleClientId?: string;
}): MockAnswer {
  return {
    body: {
      success: true,
      googleClientId: ids.googleClientId ?? null,
      facebookAppId: ids.facebookAppId ?? null,
      appleClientId: ids.appleClientId ?? null,
      localMailbox: true,
      localPhone: false,
      billing: { provider: 'local', publishableKey: null, configured: true },
    },
  };
}

/** The browser finished (or failed) fetching one SDK. */
export async function finishLoading(src: string, outcome: 'load' | 'error' = 'load') {
  const script = await waitFor(() => {
    const found = document.querySelector<HTMLScriptElement>(`script[src="${src}"]`);
    if (!found) throw new Error(`no <script src="${src}"> on the page`);
    return found;
  });
  if (outcome === 'load') fireEvent.load(script);
  else fireEvent.error(script);
}

const base64Url = (value: unknown) =>
  btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** A JWT-shaped token with these claims (the web only decodes it; the server checks the signature). */
export const fakeIdToken = (claims: Record<string, unknown>) =>
  `${base64Url({ alg: 'RS256', kid: 'test-key', typ: 'JWT' })}.${base64Url(claims)}.c2lnbmF0dXJl`;

export const googleClaims = {
  iss: 'https://accounts.google.com',
  aud: 'google-client-id',
  sub: 'google-sub-1',
  email: 'bella@gmail.com',
  email_verified: true,
  given_name: 'Bella',
  family_name: 'Rossi',
};

/** Google Identity Services: renderButton draws a button that, clicked, hands over `credential`. */
export function stubGoogle() {
  let config: GoogleIdConfiguration | null = null;
  let credential: string | undefined = fakeIdToken(googleClaims);
  const initialize = vi.fn((next: GoogleIdConfiguration) => {
    config = next;
  });
  const renderButton = vi.fn((parent: HTMLElement, _options: GoogleButtonConfiguration) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = "Google's own button";
    button.addEventListener('click', () => {
      const response: GoogleCredentialResponse = { credential, select_by: 'btn' };
      config?.callback(response);
    });
    parent.append(button);
  });
  vi.stubGlobal('google', { accounts: { id: { initialize, renderButton, prompt: vi.fn() } } });
  return {
    initialize,
    renderButton,
    /** What Google answers the next time its button is clicked. */
    answerWith(next: string | undefined) {
      credential = next;
    },
  };
}

export const facebookAuth = { accessToken: 'fb-user-access-token', userID: 'fb-user-1', expiresIn: 3600 };
export const facebookMe: FacebookMe = {
  id: 'fb-user-1',
  first_name: 'Bella',
  last_name: 'Rossi',
  email: 'bella@facebook.test',
};

/** Facebook SDK: FB.login answers `login`, Graph /me answers `me`. */
export function stubFacebook(
  login: FacebookLoginResponse = { status: 'connected', authResponse: facebookAuth },
  me: FacebookMe = facebookMe,
) {
  const init = vi.fn();
  const loginMock = vi.fn((callback: (response: FacebookLoginResponse) => void, _options: unknown) =>
    callback(login),
  );
  const api = vi.fn((_path: string, _params: unknown, callback: (response: FacebookMe) => void) =>
    callback(me),
  );
  vi.stubGlobal('FB', { init, login: loginMock, api });
  return { init, login: loginMock, api };
}

export const appleClaims = {
  iss: 'https://appleid.apple.com',
  aud: 'apple-client-id',
  sub: 'apple-sub-1',
  email: 'bella@privaterelay.appleid.com',
};

/** Sign in with Apple JS: signIn resolves with `answer` (or rejects with it when `fails`). */
export function stubApple(
  answer: (nonce: string | undefined) => AppleSignInResponse | { error: string },
  fails = false,
) {
  let nonce: string | undefined;
  const init = vi.fn((config: { nonce?: string }) => {
    nonce = config.nonce;
  });
  const signIn = vi.fn(() => (fails ? Promise.reject(answer(nonce)) : Promise.resolve(answer(nonce))));
  vi.stubGlobal('AppleID', { auth: { init, signIn } });
  return { init, signIn };
}

/** Apple's first-sign-in answer: an identity token carrying the nonce, and the name. */
export const appleFirstSignIn = (nonce: string | undefined): AppleSignInResponse => ({
  authorization: { id_token: fakeIdToken({ ...appleClaims, nonce }), code: 'apple-code' },
  user: { name: { firstName: 'Bella', lastName: 'Rossi' } },
});
