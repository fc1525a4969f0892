import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { openingResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { openingsKeys } from './openings-keys.ts';

/** POST /openings/:id/close: the owner fills or cancels the slot by hand; no more offers go out. */
export function closeOpening(id: string) {
  return apiRequest<z.output<typeof openingResponse>>(`/openings/${encodeURIComponent(id)}/close`, {
    method: 'POST',
    body: {},
    defaultMessage: 'Could not close the opening',
  });
}

export function useCloseOpening() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: closeOpening,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: openingsKeys.all }),
  });
}
