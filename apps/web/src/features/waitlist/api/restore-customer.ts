import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Customer } from '@waitlist/contract';
import { apiRequest } from '../../../lib/api-client.ts';
import { waitlistKeys } from './waitlist-keys.ts';

/**
 * POST /waitlist/:id/restore (issue 27): a removed customer back in line, at their old place when removed
 * within the last 7 days, else at the end.
 */
export function restoreCustomer(id: string) {
  return apiRequest<{ success: true; data: Customer; message: string }>(
    `/waitlist/${encodeURIComponent(id)}/restore`,
    { method: 'POST', defaultMessage: 'Could not put the customer back on the waitlist' },
  );
}

export function useRestoreCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreCustomer,
    onSettled: () => queryClient.invalidateQueries({ queryKey: waitlistKeys.all }),
  });
}
