import { useMutation } from '@tanstack/react-query';
import { authMessages, type ResetPasswordBody } from '@waitlist/contract';
import { apiRequest } from '../../../lib/api-client.ts';

type MessageAnswer = { success: true; message: string };

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
