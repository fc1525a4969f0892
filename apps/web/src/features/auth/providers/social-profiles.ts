import type { SocialUserData } from '@waitlist/contract';
import { claimString, decodeIdTokenClaims } from './id-token.ts';
import type { AppleSignInResponse, FacebookAuthResponse, FacebookMe } from './sdk-globals.ts';

/**
 * Turns what each provider hands the page into the SPEC's social profile data (firstName, lastName,
 * email, provider, providerId) plus the proof the server verifies. An empty email is left empty: the
 * caller shows "Email is required..." instead of calling the server.
 */

/** Google Identity Services: the ID token ("credential") carries the profile in its claims. */
export function googleProfile(credential: string): SocialUserData | null {
  const claims = decodeIdTokenClaims(credential);
  if (!claims) return null;
  const [first = '', ...rest] = claimString(claims, 'name').split(' ');
  return {
    firstName: claimString(claims, 'given_name') || first,
    lastName: claimString(claims, 'family_name') || rest.join(' '),
    email: claimString(claims, 'email'),
    provider: 'google',
    providerId: claimString(claims, 'sub'),
    idToken: credential,
  };
}

/** Facebook: the user access token from FB.login, the names and email from Graph /me. */
export function facebookProfile(auth: FacebookAuthResponse, me: FacebookMe): SocialUserData {
  return {
    firstName: me.first_name ?? '',
    lastName: me.last_name ?? '',
    email: me.email ?? '',
    provider: 'facebook',
    providerId: me.id ?? auth.userID,
    accessToken: auth.accessToken,
  };
}

/**
 * Apple: email and subject come from the identity token, decoded here (SPEC §7); the name only from
 * the first sign-in's `user`. The nonce is the raw value this page gave AppleID.auth.init.
 */
export function appleProfile(response: AppleSignInResponse, nonce: string): SocialUserData | null {
  const idToken = response.authorization?.id_token;
  if (!idToken) return null;
  const claims = decodeIdTokenClaims(idToken) ?? {};
  return {
    firstName: response.user?.name?.firstName ?? '',
    lastName: response.user?.name?.lastName ?? '',
    email: claimString(claims, 'email') || (response.user?.email ?? ''),
    provider: 'apple',
    providerId: claimString(claims, 'sub'),
    idToken,
    nonce,
  };
}

/** A fresh random nonce for each Apple attempt, so a captured token cannot be replayed. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
