import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import type { Waitlist, WaitlistFilters } from './get-waitlist.ts';
import { waitlistKeys } from './waitlist-keys.ts';

/**
 * POST /waitlist/reorder: ids in their new order. The whole list or only the customers on screen (a
 * filtered list): those take the places they held between them.
 */
export function reorderWaitlist(ids: string[]) {
  return apiRequest<{ success: true }>('/waitlist/reorder', {
    method: 'POST',
    body: { ids },
    defaultMessage: 'Could not reorder the waitlist',
  });
}

/** Moves the rows on screen at once (optimistic), puts them back if the server refuses. */
export function useReorderWaitlist(filters: WaitlistFilters) {
  const queryClient = useQueryClient();
  const key = waitlistKeys.list(filters);
  return useMutation({
    mutationFn: reorderWaitlist,
    onMutate: async (ids) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Waitlist>(key);
      if (previous) {
        const byId = new Map(previous.customers.map((customer) => [customer.id, customer]));
        const moved = ids.flatMap((id) => byId.get(id) ?? []);
        const rest = previous.customers.filter((customer) => !ids.includes(customer.id));
        queryClient.setQueryData<Waitlist>(key, { ...previous, customers: [...moved, ...rest] });
      }
      return { previous };
    },
    onError: (_error, _ids, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: waitlistKeys.lists }),
  });
}
