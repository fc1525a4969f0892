import { authMessages } from '@waitlist/contract';
import type {
  AppleIdSdk,
  AppleSignInResponse,
  FacebookLoginResponse,
  FacebookMe,
  FacebookSdk,
} from '../providers/sdk-globals.ts';
import { appleProfile, facebookProfile, newNonce } from '../providers/social-profiles.ts';
import type { SocialAttempt } from './use-social-attempt.ts';

/** Closing Apple's window is the owner changing their mind, not a failure worth a message. */
const appleCancelled = (error: unknown) =>
  typeof error === 'object' &&
  error !== null &&
  ['popup_closed_by_user', 'user_cancelled_authorize'].includes(String((error as { error?: unknown }).error));

const readFacebookMe = (sdk: FacebookSdk) =>
  new Promise<FacebookMe>((resolve) => sdk.api('/me', { fields: 'id,first_name,last_name,email' }, resolve));

/** Facebook's login window, then the profile it allows; its access token goes to our server. */
export function startFacebookLogin(sdk: FacebookSdk, attempt: SocialAttempt) {
  attempt.setBusy('Facebook');
  // Called straight from the click, so the browser lets Facebook open its window.
  sdk.login(
    (response: FacebookLoginResponse) => {
      const auth = response.authResponse;
      if (!auth) {
        attempt.setBusy(null); // closed or declined: nothing to say
        return;
      }
      void readFacebookMe(sdk).then((me) => {
        if (me.error || !(me.id ?? auth.userID)) {
          attempt.fail(authMessages.socialSignInFailed('Facebook'));
          return;
        }
        void attempt.complete('Facebook', facebookProfile(auth, me));
      });
    },
    { scope: 'public_profile,email', auth_type: 'rerequest' },
  );
}

/** Apple's sign-in window, with a nonce its identity token must carry back. */
export function startAppleSignIn(sdk: AppleIdSdk, clientId: string, attempt: SocialAttempt) {
  const nonce = newNonce();
  let signingIn: Promise<AppleSignInResponse>;
  try {
    sdk.auth.init({
      clientId,
      scope: 'name email',
      redirectURI: `${window.location.origin}/login`,
      usePopup: true,
      nonce,
    });
    attempt.setBusy('Apple');
    signingIn = sdk.auth.signIn();
  } catch {
    attempt.fail(authMessages.socialSignInFailed('Apple'));
    return;
  }
  signingIn.then(
    (response) => {
      const data = appleProfile(response, nonce);
      if (!data) {
        attempt.fail(authMessages.appleNoIdToken);
        return;
      }
      void attempt.complete('Apple', data);
    },
    (error: unknown) => {
      if (appleCancelled(error)) attempt.setBusy(null);
      else attempt.fail(authMessages.socialSignInFailed('Apple'));
    },
  );
}
