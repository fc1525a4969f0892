import { useMutation } from '@tanstack/react-query';
import { authMessages, type ConfirmEmailBody, screenMessages, type User } from '@waitlist/contract';
import { apiRequest } from '../../../lib/api-client.ts';

type UserAnswer = { success: true; user: User; message: string };
type MessageAnswer = { success: true; message: string };

/** POST /auth/confirm-email: the code sent to the pending new address; the address then becomes the account's. */
export function confirmEmail(body: ConfirmEmailBody): Promise<UserAnswer> {
  return apiRequest<UserAnswer>('/auth/confirm-email', {
    method: 'POST',
    body,
    defaultMessage: screenMessages.confirmEmailFailed,
  });
}

/** DELETE /auth/pending-email: the account keeps its address. */
export function cancelEmailChange(): Promise<UserAnswer> {
  return apiRequest<UserAnswer>('/auth/pending-email', {
    method: 'DELETE',
    defaultMessage: screenMessages.cancelEmailChangeFailed,
  });
}

/** POST /auth/send-verification: for a verified account with a pending address, a new code goes there. */
export function resendEmailCode(): Promise<MessageAnswer> {
  return apiRequest<MessageAnswer>('/auth/send-verification', {
    method: 'POST',
    defaultMessage: authMessages.sendVerificationFailed,
  });
}

export function useConfirmEmail() {
  return useMutation({ mutationFn: confirmEmail });
}
export function useCancelEmailChange() {
  return useMutation({ mutationFn: cancelEmailChange });
}
export function useResendEmailCode() {
  return useMutation({ mutationFn: resendEmailCode });
}
