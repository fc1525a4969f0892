import { useMutation } from '@tanstack/react-query';
import {
  authMessages,
  type ConfirmEmailBody,
  type messageResponse,
  screenMessages,
  type userResponse,
} from '@waitlist/contract';
import type { z } from 'zod';
import { apiCall } from '../../../lib/api-client.ts';

type UserAnswer = z.output<typeof userResponse>;

/** POST /auth/confirm-email: the code sent to the pending new address; the address then becomes the account's. */
export const confirmEmail = apiCall<UserAnswer, ConfirmEmailBody>(
  '/auth/confirm-email',
  'POST',
  screenMessages.confirmEmailFailed,
);

/** DELETE /auth/pending-email: the account keeps its address. */
export const cancelEmailChange = apiCall<UserAnswer>(
  '/auth/pending-email',
  'DELETE',
  screenMessages.cancelEmailChangeFailed,
);

/** POST /auth/send-verification: for a verified account with a pending address, a new code goes there. */
export const resendEmailCode = apiCall<z.output<typeof messageResponse>>(
  '/auth/send-verification',
  'POST',
  authMessages.sendVerificationFailed,
);

export function useConfirmEmail() {
  return useMutation({ mutationFn: confirmEmail });
}
export function useCancelEmailChange() {
  return useMutation({ mutationFn: cancelEmailChange });
}
export function useResendEmailCode() {
  return useMutation({ mutationFn: resendEmailCode });
}
