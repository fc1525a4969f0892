import { useMutation } from '@tanstack/react-query';
import { screenMessages } from '@waitlist/contract';
import { apiRequest } from '../../../lib/api-client.ts';

type MessageAnswer = { success: true; message: string };

export function deleteAccount(): Promise<MessageAnswer> {
  return apiRequest<MessageAnswer>('/auth/account', {
    method: 'DELETE',
    defaultMessage: screenMessages.deleteAccountFailed,
  });
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}
