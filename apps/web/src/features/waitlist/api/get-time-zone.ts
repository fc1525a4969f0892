import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { waitlistKeys } from './waitlist-keys.ts';

/** GET /settings/time-zone: the business's zone, in which the conversation's times are shown. */
export async function getTimeZone(signal?: AbortSignal): Promise<string> {
  const answer = await apiRequest<{ success: true; data: { timeZone: string } }>('/settings/time-zone', {
    defaultMessage: 'Failed to load your time zone',
    signal,
  });
  return answer.data.timeZone;
}

export const timeZoneQueryOptions = () =>
  queryOptions({
    queryKey: [...waitlistKeys.all, 'time-zone'],
    queryFn: ({ signal }) => getTimeZone(signal),
    staleTime: 60_000,
  });

export function useBusinessTimeZone() {
  return useQuery(timeZoneQueryOptions());
}
