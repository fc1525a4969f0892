import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { waitlistKeys } from './waitlist-keys.ts';

/** DELETE /waitlist/:id: the customer leaves the list (status removed). */
export function removeCustomer(id: string) {
  return apiRequest<{ success: true }>(`/waitlist/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    defaultMessage: 'Could not remove the customer',
  });
}

export function useRemoveCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeCustomer,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: waitlistKeys.all }),
  });
}
