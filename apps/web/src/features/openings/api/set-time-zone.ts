import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { timeZoneResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { openingsKeys } from './openings-keys.ts';

/** PUT /settings/time-zone: the zone openings are typed in and alerts are counted per day in. */
export function setTimeZone(timeZone: string) {
  return apiRequest<z.output<typeof timeZoneResponse>>('/settings/time-zone', {
    method: 'PUT',
    body: { timeZone },
    defaultMessage: 'Could not save the time zone',
  });
}

export function useSetTimeZone() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setTimeZone,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: openingsKeys.all }),
  });
}
