import { useMutation } from '@tanstack/react-query';
import { authMessages, type messageResponse, type ResetPasswordBody } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

type MessageAnswer = z.output<typeof messageResponse>;

export function resetPassword({ resetToken, ...body }: ResetPasswordBody & { resetToken: string }) {
  return apiRequest<MessageAnswer>(`/auth/resetpassword/${encodeURIComponent(resetToken)}`, {
    method: 'PUT',
    body,
    defaultMessage: authMessages.resetPasswordFailed,
  });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
