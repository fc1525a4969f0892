import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { deletedResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { servicesKeys } from '../../../lib/services-and-staff.ts';

export type EntryKind = 'service' | 'staff';

/** DELETE /services/:id or DELETE /staff/:id. */
export function deleteEntry({ kind, id }: { kind: EntryKind; id: string }) {
  return apiRequest<z.output<typeof deletedResponse>>(
    `/${kind === 'service' ? 'services' : 'staff'}/${encodeURIComponent(id)}`,
    {
      method: 'DELETE',
      defaultMessage:
        kind === 'service' ? 'Could not delete the service' : 'Could not delete the staff member',
    },
  );
}

export function useDeleteEntry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteEntry,
    onSuccess: (_answer, { kind }) =>
      queryClient.invalidateQueries({
        queryKey: kind === 'service' ? servicesKeys.services : servicesKeys.staff,
      }),
  });
}
