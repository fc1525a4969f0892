import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { openingResponse, ReleaseClaimBody } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { openingsKeys } from './openings-keys.ts';

type OpeningAnswer = z.output<typeof openingResponse>;

/**
 * POST /openings/:id/release: the winner backed out; the slot goes to the next customer in the plan, and the
 * winner is texted so, with the owner's optional line (issue 39).
 */
export function releaseClaim({ id, note }: { id: string } & ReleaseClaimBody) {
  return apiRequest<OpeningAnswer>(`/openings/${encodeURIComponent(id)}/release`, {
    method: 'POST',
    body: note ? { note } : {},
    defaultMessage: 'Could not offer the slot to the next customer',
  });
}

export function useReleaseClaim() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: releaseClaim,
    onSuccess: (answer) => {
      queryClient.setQueryData(openingsKeys.detail(answer.data.id), answer.data);
      return queryClient.invalidateQueries({ queryKey: openingsKeys.all });
    },
  });
}
