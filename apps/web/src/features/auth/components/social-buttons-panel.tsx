import { authMessages } from '@waitlist/contract';
import { type ReactNode, useRef } from 'react';
import { useConfig } from '../../../lib/config.ts';
import {
  appleIdSdk,
  FACEBOOK_API_VERSION,
  facebookSdk,
  googleAccountsId,
  sdkUrls,
} from '../providers/sdk-globals.ts';
import { startAppleSignIn, startFacebookLogin } from './provider-sign-in.ts';
import { AppleIcon, FacebookIcon, GoogleIcon } from './social-icons.tsx';
import { useGoogleButton } from './use-google-button.ts';
import { useProviderSdk } from './use-provider-sdk.ts';
import { type SocialProvider, useSocialAttempt } from './use-social-attempt.ts';

export type SocialButtonsProps = {
  /** The line above the buttons ("or", "or sign up with"); shown only when a provider is offered. */
  divider: string;
  /** Runs first; return false to stop (register checks the terms box here). */
  beforeContinue?: (provider: SocialProvider) => boolean;
  /**
   * Whether `beforeContinue` would let Google through right now. A click on Google's own button
   * cannot be stopped, so while this is false our button stands in for it and asks first.
   */
  googleUnlocked?: boolean;
};

/**
 * "Continue with Google / Facebook / Apple" (SPEC §1, §7). Only the providers this server has a client id
 * for are offered (issue 27: a button that can only say "not configured" is not shown), and each SDK loads
 * only then; with none configured, or while GET /config is unanswered, nothing shows. Google's ID token,
 * Facebook's access token and Apple's identity token (with its nonce) go to POST /auth/external, which
 * verifies them.
 */
export function SocialButtonsPanel({ divider, beforeContinue, googleUnlocked = true }: SocialButtonsProps) {
  const config = useConfig();
  const googleClientId = config.data?.googleClientId ?? null;
  const facebookAppId = config.data?.facebookAppId ?? null;
  const appleClientId = config.data?.appleClientId ?? null;
  const attempt = useSocialAttempt({
    beforeContinue,
    clientIds: { Google: googleClientId, Facebook: facebookAppId, Apple: appleClientId },
  });
  const { busy, mayStart } = attempt;

  const google = useProviderSdk(sdkUrls.google, googleClientId, googleAccountsId);
  const facebook = useProviderSdk(sdkUrls.facebook, facebookAppId, (appId) => {
    const sdk = facebookSdk();
    sdk?.init({ appId, version: FACEBOOK_API_VERSION, cookie: false, xfbml: false });
    return sdk;
  });
  const apple = useProviderSdk(sdkUrls.apple, appleClientId, appleIdSdk);

  const buttonsRef = useRef<HTMLDivElement>(null);
  const googleButton = useGoogleButton({
    google,
    clientId: googleClientId,
    beforeContinue,
    attempt,
    columnRef: buttonsRef,
  });
  const googleStatus = googleButton.status;
  const showGoogleButton =
    googleButton.rendered && googleStatus === 'ready' && googleUnlocked && busy !== 'Google';

  const onGoogle = () => {
    // Only reached through our stand-in: still loading, failed, or terms not ticked.
    mayStart('Google', googleStatus, authMessages.googleInitFailed);
  };

  const onFacebook = () => {
    if (!mayStart('Facebook', facebook.status, authMessages.socialSignInFailed('Facebook'))) return;
    if (facebook.status !== 'ready') return;
    startFacebookLogin(facebook.sdk, attempt);
  };

  const onApple = () => {
    if (!mayStart('Apple', apple.status, authMessages.socialSignInFailed('Apple'))) return;
    if (apple.status !== 'ready' || !appleClientId) return;
    startAppleSignIn(apple.sdk, appleClientId, attempt);
  };

  const loading = (status: string) => status === 'loading';

  if (!googleClientId && !facebookAppId && !appleClientId) return null;

  return (
    <>
      <div className="auth-divider">{divider}</div>
      <div className="social-buttons" ref={buttonsRef}>
        {googleClientId ? (
          <div className="social-buttons__google">
            <div ref={googleButton.slot} className="social-buttons__google-slot" hidden={!showGoogleButton} />
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
        ) : null}
        {facebookAppId ? (
          <ProviderButton
            busy={busy === 'Facebook' || loading(facebook.status)}
            onClick={onFacebook}
            icon={<FacebookIcon />}
          >
            Continue with Facebook
          </ProviderButton>
        ) : null}
        {appleClientId ? (
          <ProviderButton
            busy={busy === 'Apple' || loading(apple.status)}
            onClick={onApple}
            icon={<AppleIcon />}
          >
            Continue with Apple
          </ProviderButton>
        ) : null}
      </div>
    </>
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
