import { useMutation } from '@tanstack/react-query';
import { authMessages } from '@waitlist/contract';
import { apiRequest } from '../../../lib/api-client.ts';

type MessageAnswer = { success: true; message: string };

export function sendVerification(): Promise<MessageAnswer> {
  return apiRequest<MessageAnswer>('/auth/send-verification', {
    method: 'POST',
    defaultMessage: authMessages.sendVerificationFailed,
  });
}

export function useSendVerification() {
  return useMutation({ mutationFn: sendVerification });
}
