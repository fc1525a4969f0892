import { useMutation } from '@tanstack/react-query';
import { authMessages, type ForgotPasswordBody, type messageResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiCall } from '../../../lib/api-client.ts';

export const forgotPassword = apiCall<z.output<typeof messageResponse>, ForgotPasswordBody>(
  '/auth/forgotpassword',
  'POST',
  authMessages.forgotPasswordFailed,
);

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
