import { useMutation } from '@tanstack/react-query';
import { authMessages, type messageResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

type MessageAnswer = z.output<typeof messageResponse>;

export function sendVerification(): Promise<MessageAnswer> {
  return apiRequest<MessageAnswer>('/auth/send-verification', {
    method: 'POST',
    defaultMessage: authMessages.sendVerificationFailed,
  });
}

export function useSendVerification() {
  return useMutation({ mutationFn: sendVerification });
}
