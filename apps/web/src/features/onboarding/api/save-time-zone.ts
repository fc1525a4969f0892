import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** PUT /settings/time-zone: the zone openings are typed in and alerts are counted per day in. */
export function saveTimeZone(timeZone: string) {
  return apiRequest<{ success: true; data: { timeZone: string }; message: string }>('/settings/time-zone', {
    method: 'PUT',
    body: { timeZone },
    defaultMessage: 'Could not save the time zone',
  });
}

export function useSaveTimeZone() {
  return useMutation({ mutationFn: saveTimeZone });
}
