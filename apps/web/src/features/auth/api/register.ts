import { useMutation } from '@tanstack/react-query';
import { type AuthResponse, authMessages, type RegisterBody } from '@waitlist/contract';
import { apiRequest } from '../../../lib/api-client.ts';

export function register(body: RegisterBody): Promise<AuthResponse> {
  return apiRequest<AuthResponse>('/auth/register', {
    method: 'POST',
    body,
    defaultMessage: authMessages.registrationFailed,
    networkMessage: authMessages.unableToConnect,
  });
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
