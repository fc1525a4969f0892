import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StaffBody, staffResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { servicesKeys } from '../../../lib/services-and-staff.ts';

type StaffAnswer = z.output<typeof staffResponse>;

/** POST /staff (add) or PUT /staff/:id (edit). */
export function saveStaff({ id, body }: { id?: string; body: StaffBody }): Promise<StaffAnswer> {
  return apiRequest<StaffAnswer>(id ? `/staff/${encodeURIComponent(id)}` : '/staff', {
    method: id ? 'PUT' : 'POST',
    body,
    defaultMessage: 'Could not save the staff member',
  });
}

export function useSaveStaff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveStaff,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: servicesKeys.staff }),
  });
}
