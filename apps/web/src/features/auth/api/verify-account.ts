import { useMutation } from '@tanstack/react-query';
import { authMessages, type User, type VerifyAccountBody } from '@waitlist/contract';
import { apiRequest } from '../../../lib/api-client.ts';

type VerifyAnswer = { success: true; user: User; message?: string };

export function verifyAccount(body: VerifyAccountBody): Promise<VerifyAnswer> {
  return apiRequest<VerifyAnswer>('/auth/verify-account', {
    method: 'POST',
    body,
    defaultMessage: authMessages.verifyAccountFailed,
  });
}

export function useVerifyAccount() {
  return useMutation({ mutationFn: verifyAccount });
}
