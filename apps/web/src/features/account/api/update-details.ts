import { useMutation } from '@tanstack/react-query';
import { authMessages, type UpdateDetailsBody, type User } from '@waitlist/contract';
import { apiRequest } from '../../../lib/api-client.ts';

type UpdateDetailsAnswer = { success: true; data: User; message: string };

/** The business phone is shown on the form but never sent from it (SPEC §5). */
export type ProfileDetails = Omit<UpdateDetailsBody, 'businessPhone'>;

export function updateDetails(body: ProfileDetails): Promise<UpdateDetailsAnswer> {
  return apiRequest<UpdateDetailsAnswer>('/auth/updatedetails', {
    method: 'PUT',
    body,
    defaultMessage: authMessages.updateProfileFailed,
  });
}

export function useUpdateDetails() {
  return useMutation({ mutationFn: updateDetails });
}
