import { authMessages, type SocialUserData, validationMessages } from '@waitlist/contract';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useToast } from '../../../components/ui/toast.tsx';
import { useConfig } from '../../../lib/config.ts';
import { socialUserDataStorage } from '../../../lib/social-user-data.ts';
import {
  type AppleSignInResponse,
  appleIdSdk,
  FACEBOOK_API_VERSION,
  type FacebookLoginResponse,
  type FacebookMe,
  type FacebookSdk,
  facebookSdk,
  type GoogleCredentialResponse,
  googleAccountsId,
  sdkUrls,
} from '../providers/sdk-globals.ts';
import { appleProfile, facebookProfile, googleProfile, newNonce } from '../providers/social-profiles.ts';
import { AppleIcon, FacebookIcon, GoogleIcon } from './social-icons.tsx';
import { useProviderSdk } from './use-provider-sdk.ts';
import { useSocialSignIn } from './use-social-sign-in.ts';

export type SocialProvider = 'Google' | 'Facebook' | 'Apple';

type SocialButtonsProps = {
  /** Runs first; return false to stop (register checks the terms box here). */
  beforeContinue?: (provider: SocialProvider) => boolean;
  /**
   * Whether `beforeContinue` would let Google through right now. A click on Google's own button
   * cannot be stopped, so while this is false our button stands in for it and asks first.
   */
  googleUnlocked?: boolean;
};

const notConfiguredMessage: Record<SocialProvider, string> = {
  Google: authMessages.googleNotConfigured,
  Facebook: authMessages.facebookNotConfigured,
  Apple: authMessages.appleNotConfigured,
};

/** Closing Apple's window is the owner changing their mind, not a failure worth a message. */
const appleCancelled = (error: unknown) =>
  typeof error === 'object' &&
  error !== null &&
  ['popup_closed_by_user', 'user_cancelled_authorize'].includes(String((error as { error?: unknown }).error));

const readFacebookMe = (sdk: FacebookSdk) =>
  new Promise<FacebookMe>((resolve) => sdk.api('/me', { fields: 'id,first_name,last_name,email' }, resolve));

/**
 * "Continue with Google / Facebook / Apple" (SPEC §1, §7). Each SDK loads only when this server has a
 * client id for it; without one the button says the provider is not configured. Google's ID token,
 * Facebook's access token and Apple's identity token (with its nonce) go to POST /auth/external, which
 * verifies them.
 */
export function SocialButtons({ beforeContinue, googleUnlocked = true }: SocialButtonsProps) {
  const config = useConfig();
  const toast = useToast();
  const navigate = useNavigate();
  const signInWith = useSocialSignIn();
  const [busy, setBusy] = useState<SocialProvider | null>(null);

  const googleClientId = config.data?.googleClientId ?? null;
  const facebookAppId = config.data?.facebookAppId ?? null;
  const appleClientId = config.data?.appleClientId ?? null;
  const clientIds: Record<SocialProvider, string | null> = {
    Google: googleClientId,
    Facebook: facebookAppId,
    Apple: appleClientId,
  };

  const google = useProviderSdk(sdkUrls.google, googleClientId, googleAccountsId);
  const facebook = useProviderSdk(sdkUrls.facebook, facebookAppId, (appId) => {
    const sdk = facebookSdk();
    sdk?.init({ appId, version: FACEBOOK_API_VERSION, cookie: false, xfbml: false });
    return sdk;
  });
  const apple = useProviderSdk(sdkUrls.apple, appleClientId, appleIdSdk);

  const fail = (message: string) => {
    setBusy(null);
    toast.error(message);
  };

  /** The provider has answered: check what the SPEC needs, then ask our server. */
  const complete = async (provider: SocialProvider, data: SocialUserData) => {
    if (!data.email.trim()) {
      fail(validationMessages.socialEmailRequired);
      return;
    }
    setBusy(provider);
    const outcome = await signInWith(data);
    if (outcome.kind === 'signed-in') return;
    if (outcome.kind === 'needs-phone') {
      socialUserDataStorage.write(data);
      navigate('/post-login-onboarding', { state: { needsPhone: true } });
      return;
    }
    if (outcome.existingUser && provider !== 'Apple') {
      // SPEC §8: an existing user's failed social login goes on with the stored profile data, to
      // /congratulations (Google) or /post-login-onboarding (Facebook); the reason shows there too.
      socialUserDataStorage.write(data);
      fail(outcome.message);
      navigate(provider === 'Google' ? '/congratulations' : '/post-login-onboarding', {
        state: { socialUserData: data },
      });
      return;
    }
    fail(outcome.message);
  };

  /** Common first steps of a click; true when the provider's own flow may start. */
  const mayStart = (provider: SocialProvider, sdkStatus: string, loadFailedMessage: string) => {
    if (busy) return false;
    if (beforeContinue && !beforeContinue(provider)) return false;
    if (!clientIds[provider]) {
      toast.warning(notConfiguredMessage[provider]);
      return false;
    }
    if (sdkStatus === 'failed') {
      toast.error(loadFailedMessage);
      return false;
    }
    return sdkStatus === 'ready';
  };

  // Google: its own rendered button starts the flow; the credential arrives here.
  const googleSlot = useRef<HTMLDivElement>(null);
  const buttonsRef = useRef<HTMLDivElement>(null);
  const [googleRendered, setGoogleRendered] = useState(false);
  const [googleStartFailed, setGoogleStartFailed] = useState(false);
  const onGoogleCredential = useRef<(response: GoogleCredentialResponse) => void>(() => {});
  onGoogleCredential.current = (response) => {
    if (beforeContinue && !beforeContinue('Google')) return;
    const data = response.credential ? googleProfile(response.credential) : null;
    if (!data) {
      fail(authMessages.socialSignInFailed('Google'));
      return;
    }
    void complete('Google', data);
  };

  useEffect(() => {
    const slot = googleSlot.current;
    if (google.status !== 'ready' || !googleClientId || !slot) return;
    try {
      google.sdk.initialize({
        client_id: googleClientId,
        callback: (response) => onGoogleCredential.current(response),
        ux_mode: 'popup',
        auto_select: false,
        itp_support: true,
      });
      // Google draws its button at a fixed width (200-400 px): match the column it sits in.
      const columnWidth = buttonsRef.current?.clientWidth || 400;
      slot.replaceChildren();
      google.sdk.renderButton(slot, {
        type: 'standard',
        theme: 'outline',
        size: 'large',
        text: 'continue_with',
        shape: 'rectangular',
        logo_alignment: 'center',
        width: Math.min(400, Math.max(200, columnWidth)),
      });
      setGoogleRendered(true);
    } catch {
      setGoogleStartFailed(true);
    }
  }, [google, googleClientId]);

  const googleStatus = googleStartFailed ? 'failed' : google.status;
  const showGoogleButton = googleRendered && googleStatus === 'ready' && googleUnlocked && busy !== 'Google';

  const onGoogle = () => {
    // Only reached through our stand-in: not configured, still loading, failed, or terms not ticked.
    mayStart('Google', googleStatus, authMessages.googleInitFailed);
  };

  const onFacebook = () => {
    if (!mayStart('Facebook', facebook.status, authMessages.socialSignInFailed('Facebook'))) return;
    if (facebook.status !== 'ready') return;
    const sdk = facebook.sdk;
    setBusy('Facebook');
    // Called straight from the click, so the browser lets Facebook open its window.
    sdk.login(
      (response: FacebookLoginResponse) => {
        const auth = response.authResponse;
        if (!auth) {
          setBusy(null); // closed or declined: nothing to say
          return;
        }
        void readFacebookMe(sdk).then((me) => {
          if (me.error || !(me.id ?? auth.userID)) {
            fail(authMessages.socialSignInFailed('Facebook'));
            return;
          }
          void complete('Facebook', facebookProfile(auth, me));
        });
      },
      { scope: 'public_profile,email', auth_type: 'rerequest' },
    );
  };

  const onApple = () => {
    if (!mayStart('Apple', apple.status, authMessages.socialSignInFailed('Apple'))) return;
    if (apple.status !== 'ready' || !appleClientId) return;
    const nonce = newNonce();
    let signingIn: Promise<AppleSignInResponse>;
    try {
      apple.sdk.auth.init({
        clientId: appleClientId,
        scope: 'name email',
        redirectURI: `${window.location.origin}/login`,
        usePopup: true,
        nonce,
      });
      setBusy('Apple');
      signingIn = apple.sdk.auth.signIn();
    } catch {
      fail(authMessages.socialSignInFailed('Apple'));
      return;
    }
    signingIn.then(
      (response) => {
        const data = appleProfile(response, nonce);
        if (!data) {
          fail(authMessages.appleNoIdToken);
          return;
        }
        void complete('Apple', data);
      },
      (error: unknown) => {
        if (appleCancelled(error)) setBusy(null);
        else fail(authMessages.socialSignInFailed('Apple'));
      },
    );
  };

  const loading = (status: string) => status === 'loading';

  return (
    <div className="social-buttons" ref={buttonsRef}>
      <div className="social-buttons__google">
        <div ref={googleSlot} className="social-buttons__google-slot" hidden={!showGoogleButton} />
        {showGoogleButton ? null : (
          <ProviderButton
            busy={busy === 'Google' || loading(googleStatus)}
            onClick={onGoogle}
            icon={<GoogleIcon />}
          >
            Continue with Google
          </ProviderButton>
        )}
      </div>
      <ProviderButton
        busy={busy === 'Facebook' || loading(facebook.status)}
        onClick={onFacebook}
        icon={<FacebookIcon />}
      >
        Continue with Facebook
      </ProviderButton>
      <ProviderButton busy={busy === 'Apple' || loading(apple.status)} onClick={onApple} icon={<AppleIcon />}>
        Continue with Apple
      </ProviderButton>
    </div>
  );
}

function ProviderButton({
  busy,
  onClick,
  icon,
  children,
}: {
  busy: boolean;
  onClick: () => void;
  icon: ReactNode;
  children: ReactNode;
}) {
  return (
    <button type="button" className="social-button" aria-busy={busy || undefined} onClick={onClick}>
      {busy ? <span className="social-button__spinner" aria-hidden="true" /> : icon}
      {children}
    </button>
  );
}
