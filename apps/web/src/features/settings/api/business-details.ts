import { useMutation } from '@tanstack/react-query';
import { authMessages, type UpdateDetailsBody, type User } from '@waitlist/contract';
import { apiRequest } from '../../../lib/api-client.ts';

type UpdateDetailsAnswer = { success: true; data: User; message: string };

/** The business's own fields; the owner's name and email go along unchanged, as the call needs them. */
export type BusinessDetails = Pick<
  UpdateDetailsBody,
  'businessName' | 'businessAddress' | 'city' | 'state' | 'zip'
>;

/** PUT /auth/updatedetails with the owner's details as they are and the business's as edited. */
export function saveBusinessDetails(user: User, details: BusinessDetails): Promise<UpdateDetailsAnswer> {
  const body: Omit<UpdateDetailsBody, 'businessPhone'> = {
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    ...details,
  };
  return apiRequest<UpdateDetailsAnswer>('/auth/updatedetails', {
    method: 'PUT',
    body,
    defaultMessage: authMessages.updateProfileFailed,
  });
}

export function useSaveBusinessDetails(user: User) {
  return useMutation({ mutationFn: (details: BusinessDetails) => saveBusinessDetails(user, details) });
}
