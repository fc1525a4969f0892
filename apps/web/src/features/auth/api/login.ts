import { useMutation } from '@tanstack/react-query';
import { type AuthResponse, authMessages, type LoginBody } from '@waitlist/contract';
import { apiRequest } from '../../../lib/api-client.ts';

export function login(body: LoginBody): Promise<AuthResponse> {
  return apiRequest<AuthResponse>('/auth/login', {
    method: 'POST',
    body,
    defaultMessage: authMessages.loginFailed,
    statusMessages: { 401: authMessages.invalidCredentials, 404: authMessages.accountNotFound },
    networkMessage: authMessages.noResponse,
  });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
