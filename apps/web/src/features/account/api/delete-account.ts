import { useMutation } from '@tanstack/react-query';
import { type messageResponse, screenMessages } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

type MessageAnswer = z.output<typeof messageResponse>;

export function deleteAccount(): Promise<MessageAnswer> {
  return apiRequest<MessageAnswer>('/auth/account', {
    method: 'DELETE',
    defaultMessage: screenMessages.deleteAccountFailed,
  });
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}
