import { useMutation } from '@tanstack/react-query';
import { authMessages, type UpdatePasswordBody } from '@waitlist/contract';
import { ApiError, apiRequest, isApiError } from '../../../lib/api-client.ts';

/** The server keeps this session and answers without a token; a token, if ever sent, replaces ours. */
type UpdatePasswordAnswer = { success: true; message: string; token?: string };

/** SPEC §8: a 401 here is a wrong current password, not a lost session. */
export async function updatePassword(body: UpdatePasswordBody): Promise<UpdatePasswordAnswer> {
  try {
    return await apiRequest<UpdatePasswordAnswer>('/auth/updatepassword', {
      method: 'PUT',
      body,
      defaultMessage: authMessages.updatePasswordFailed,
      keepSessionOn401: true,
    });
  } catch (error) {
    if (isApiError(error) && error.status === 401) {
      throw new ApiError({
        status: 401,
        message: authMessages.currentPasswordIncorrect,
        serverMessage: authMessages.currentPasswordIncorrect,
        errors: error.errors,
      });
    }
    throw error;
  }
}

export function useUpdatePassword() {
  return useMutation({ mutationFn: updatePassword });
}
