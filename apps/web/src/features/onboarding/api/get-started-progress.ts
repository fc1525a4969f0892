import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** What the guided start reads from real state: is anyone on the waitlist, has a slot ever been opened. */
export type GetStartedProgress = { customers: number; openings: number };

type CountAnswer = { success: true; data: unknown[]; count?: number };

export async function getStartedProgress(signal?: AbortSignal): Promise<GetStartedProgress> {
  const [waitlist, openings] = await Promise.all([
    apiRequest<CountAnswer>('/waitlist', { defaultMessage: 'Failed to load your waitlist', signal }),
    apiRequest<CountAnswer>('/openings', { defaultMessage: 'Failed to load your openings', signal }),
  ]);
  return { customers: waitlist.count ?? waitlist.data.length, openings: openings.data.length };
}

export const getStartedProgressQueryOptions = () =>
  queryOptions({
    queryKey: ['onboarding', 'get-started-progress'],
    queryFn: ({ signal }) => getStartedProgress(signal),
    // Always read afresh when the account page opens: the owner has just been elsewhere doing a step.
    staleTime: 0,
    refetchOnMount: 'always',
  });

export function useGetStartedProgress() {
  return useQuery(getStartedProgressQueryOptions());
}
