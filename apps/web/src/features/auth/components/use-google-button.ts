import { authMessages } from '@waitlist/contract';
import { type RefObject, useEffect, useRef, useState } from 'react';
import type { GoogleAccountsId, GoogleCredentialResponse } from '../providers/sdk-globals.ts';
import { googleProfile } from '../providers/social-profiles.ts';
import type { SdkState } from './use-provider-sdk.ts';
import type { SocialAttempt, SocialProvider } from './use-social-attempt.ts';

/**
 * Google's own rendered button starts its flow (ours cannot), and the credential arrives here. Returns
 * the slot Google draws into and its status, 'failed' too when Google would not start.
 */
export function useGoogleButton({
  google,
  clientId,
  beforeContinue,
  attempt,
  columnRef,
}: {
  google: SdkState<GoogleAccountsId>;
  clientId: string | null;
  beforeContinue?: (provider: SocialProvider) => boolean;
  attempt: SocialAttempt;
  /** The column the buttons stand in, whose width Google's button takes. */
  columnRef: RefObject<HTMLDivElement | null>;
}) {
  const slot = useRef<HTMLDivElement>(null);
  const [rendered, setRendered] = useState(false);
  const [startFailed, setStartFailed] = useState(false);
  const onCredential = useRef<(response: GoogleCredentialResponse) => void>(() => {});
  onCredential.current = (response) => {
    if (beforeContinue && !beforeContinue('Google')) return;
    const data = response.credential ? googleProfile(response.credential) : null;
    if (!data) {
      attempt.fail(authMessages.socialSignInFailed('Google'));
      return;
    }
    void attempt.complete('Google', data);
  };

  useEffect(() => {
    const element = slot.current;
    if (google.status !== 'ready' || !clientId || !element) return;
    try {
      google.sdk.initialize({
        client_id: clientId,
        callback: (response) => onCredential.current(response),
        ux_mode: 'popup',
        auto_select: false,
        itp_support: true,
      });
      // Google draws its button at a fixed width (200-400 px): match the column it sits in.
      const columnWidth = columnRef.current?.clientWidth || 400;
      element.replaceChildren();
      google.sdk.renderButton(element, {
        type: 'standard',
        theme: 'outline',
        size: 'large',
        text: 'continue_with',
        shape: 'rectangular',
        logo_alignment: 'center',
        width: Math.min(400, Math.max(200, columnWidth)),
      });
      setRendered(true);
    } catch {
      setStartFailed(true);
    }
  }, [google, clientId, columnRef]);

  const status = startFailed ? 'failed' : google.status;
  return { slot, rendered, status };
}
