import { useMutation } from '@tanstack/react-query';
import { authMessages, type ExternalAuthBody, type ExternalAuthResponse } from '@waitlist/contract';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST /auth/external: the SPEC's profile fields plus the provider's proof, which the server checks. */
export function externalAuth(body: ExternalAuthBody): Promise<ExternalAuthResponse> {
  return apiRequest<ExternalAuthResponse>('/auth/external', {
    method: 'POST',
    body,
    defaultMessage: authMessages.externalAuthFailed,
    networkMessage: authMessages.noResponse,
    // A refused provider token is not the end of a session (there is none yet).
    keepSessionOn401: true,
  });
}

export function useExternalAuth() {
  return useMutation({ mutationFn: externalAuth });
}
