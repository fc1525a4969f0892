import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateCustomerBody, customerResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { waitlistKeys } from './waitlist-keys.ts';

type CustomerAnswer = z.output<typeof customerResponse>;

/** POST /waitlist (add) or PATCH /waitlist/:id (edit). */
export function saveCustomer({
  id,
  input,
}: {
  id?: string;
  input: CreateCustomerBody;
}): Promise<CustomerAnswer> {
  return id
    ? apiRequest<CustomerAnswer>(`/waitlist/${encodeURIComponent(id)}`, {
        method: 'PATCH',
        body: input,
        defaultMessage: 'Could not save the customer',
      })
    : apiRequest<CustomerAnswer>('/waitlist', {
        method: 'POST',
        body: input,
        defaultMessage: 'Could not add the customer',
      });
}

export function useSaveCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCustomer,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: waitlistKeys.all }),
  });
}
