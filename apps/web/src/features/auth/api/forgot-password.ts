import { useMutation } from '@tanstack/react-query';
import { authMessages, type ForgotPasswordBody } from '@waitlist/contract';
import { apiRequest } from '../../../lib/api-client.ts';

type MessageAnswer = { success: true; message: string };

export function forgotPassword(body: ForgotPasswordBody): Promise<MessageAnswer> {
  return apiRequest<MessageAnswer>('/auth/forgotpassword', {
    method: 'POST',
    body,
    defaultMessage: authMessages.forgotPasswordFailed,
  });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
