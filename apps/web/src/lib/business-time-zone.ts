import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { timeZoneResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from './api-client.ts';

/**
 * The business time zone (GET/PUT /settings/time-zone): the zone openings are typed in and alerts are counted
 * per day in. Shared (lib/) because onboarding asks it and Settings changes it.
 */
type TimeZoneAnswer = z.output<typeof timeZoneResponse>;
export const businessTimeZoneKey = ['settings', 'time-zone'] as const;

export async function getBusinessTimeZone(signal?: AbortSignal): Promise<string> {
  const answer = await apiRequest<Omit<TimeZoneAnswer, 'message'>>('/settings/time-zone', {
    defaultMessage: 'Failed to load your time zone',
    signal,
  });
  return answer.data.timeZone;
}

export const businessTimeZoneQueryOptions = () =>
  queryOptions({ queryKey: businessTimeZoneKey, queryFn: ({ signal }) => getBusinessTimeZone(signal) });

export const useBusinessTimeZone = () => useQuery(businessTimeZoneQueryOptions());

export function saveTimeZone(timeZone: string) {
  return apiRequest<TimeZoneAnswer>('/settings/time-zone', {
    method: 'PUT',
    body: { timeZone },
    defaultMessage: 'Could not save the time zone',
  });
}

export function useSaveTimeZone() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveTimeZone,
    onSuccess: (answer) => {
      queryClient.setQueryData(businessTimeZoneKey, answer.data.timeZone);
      // Openings, the day, the inbox and the dashboard all read their times in this zone.
      void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[1] !== 'time-zone' });
    },
  });
}
