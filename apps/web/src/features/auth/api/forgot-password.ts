import { useMutation } from '@tanstack/react-query';
import { authMessages, type ForgotPasswordBody, type messageResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

type MessageAnswer = z.output<typeof messageResponse>;

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
