import { useQuery } from '@tanstack/react-query';
import { authMessages, type User } from '@waitlist/contract';
import { apiRequest } from '../../../lib/api-client.ts';

type ProfileAnswer = { success: true; data: User | { data: User } };

/**
 * The profile-fetch helper (SPEC §7 GET /auth/me, "profile in data.data"): the account page reads the
 * profile afresh when it opens, so what the form shows is what the server holds now.
 */
export async function getProfile(signal?: AbortSignal): Promise<User> {
  const answer = await apiRequest<ProfileAnswer>('/auth/me', {
    defaultMessage: authMessages.fetchProfileFailed,
    signal,
  });
  return 'data' in answer.data ? answer.data.data : answer.data;
}

export function useProfile() {
  return useQuery({
    queryKey: ['account', 'profile'],
    queryFn: ({ signal }) => getProfile(signal),
    staleTime: 0,
    refetchOnMount: 'always',
    retry: false,
  });
}
