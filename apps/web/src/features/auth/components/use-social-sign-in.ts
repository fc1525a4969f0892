import {
  authMessages,
  type SocialUserData,
  socialProviderNames,
  validationMessages,
} from '@waitlist/contract';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { isApiError, screenErrorMessage } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { socialUserDataStorage } from '../../../lib/social-user-data.ts';
import { useExternalAuth } from '../api/external-auth.ts';

export type SocialSignInOutcome =
  | { kind: 'signed-in' }
  /** The server wants a phone number first (SPEC §8, Apple): finish on /post-login-onboarding. */
  | { kind: 'needs-phone'; message: string }
  /** `errors` are the server's per-field messages (e.g. a phone number it could not read). */
  | {
      kind: 'failed';
      message: string;
      errors?: Record<string, string>;
      /** The server refused because an account with this email already exists (409, SPEC §8). */
      existingUser?: boolean;
    };

/** SPEC §8: the web recognises the server's Apple error by this phrase. */
function asksForPhone(error: unknown): string | null {
  if (!isApiError(error)) return null;
  const said = [error.serverMessage, ...Object.values(error.errors ?? {})];
  return said.find((message) => message?.includes(validationMessages.phoneNumberRequired)) ?? null;
}

/**
 * Sends a provider's answer to POST /auth/external and signs the owner in the way login does. A new
 * account goes to onboarding (/congratulations) with the social profile kept in sessionStorage; an
 * existing one is sent on by the public-only guard (to where they were heading, else /).
 */
export function useSocialSignIn() {
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const { mutateAsync } = useExternalAuth();

  return useCallback(
    async (data: SocialUserData, phoneNumber?: string): Promise<SocialSignInOutcome> => {
      try {
        const answer = await mutateAsync(phoneNumber ? { ...data, phoneNumber } : data);
        signIn(answer.token, answer.user);
        if (answer.isNewUser) {
          // The profile as the server verified it; the provider's token is no longer needed.
          socialUserDataStorage.write({
            firstName: answer.user.firstName,
            lastName: answer.user.lastName,
            email: answer.user.email,
            provider: data.provider,
            providerId: answer.user.providerId ?? data.providerId,
          });
          navigate('/congratulations', { replace: true });
        } else {
          socialUserDataStorage.clear();
        }
        return { kind: 'signed-in' };
      } catch (error) {
        const phoneMessage = asksForPhone(error);
        if (phoneMessage) return { kind: 'needs-phone', message: phoneMessage };
        return {
          kind: 'failed',
          message: screenErrorMessage(
            error,
            authMessages.socialSignInFailed(socialProviderNames[data.provider]),
          ),
          errors: isApiError(error) ? error.errors : undefined,
          existingUser: isApiError(error) && error.status === 409,
        };
      }
    },
    [mutateAsync, signIn, navigate],
  );
}
