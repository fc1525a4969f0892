import { authMessages, type SocialUserData, validationMessages } from '@waitlist/contract';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useToast } from '../../../components/ui/toast.tsx';
import { socialUserDataStorage } from '../../../lib/social-user-data.ts';
import type { ExistingAccountState } from './existing-account.tsx';
import { useSocialSignIn } from './use-social-sign-in.ts';

export type SocialProvider = 'Google' | 'Facebook' | 'Apple';

const notConfiguredMessage: Record<SocialProvider, string> = {
  Google: authMessages.googleNotConfigured,
  Facebook: authMessages.facebookNotConfigured,
  Apple: authMessages.appleNotConfigured,
};

export type SocialAttempt = ReturnType<typeof useSocialAttempt>;

/**
 * What every provider's button shares: which one is busy, the checks before a provider's own flow may
 * start, and what happens once the provider has answered (our server, then where the owner goes next).
 */
export function useSocialAttempt({
  beforeContinue,
  clientIds,
}: {
  beforeContinue?: (provider: SocialProvider) => boolean;
  clientIds: Record<SocialProvider, string | null>;
}) {
  const toast = useToast();
  const navigate = useNavigate();
  const signInWith = useSocialSignIn();
  const [busy, setBusy] = useState<SocialProvider | null>(null);

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
      const state: ExistingAccountState = { existingAccount: true, reason: outcome.message };
      navigate(provider === 'Google' ? '/congratulations' : '/post-login-onboarding', { state });
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

  return { busy, setBusy, fail, complete, mayStart };
}
