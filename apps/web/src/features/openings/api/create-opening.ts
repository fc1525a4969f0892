import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateOpeningBody, openingResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { openingsKeys } from './openings-keys.ts';

type OpeningAnswer = z.output<typeof openingResponse>;

/** POST /openings: opens a slot and sends its cancellation alert. */
export function createOpening(body: CreateOpeningBody) {
  return apiRequest<OpeningAnswer>('/openings', {
    method: 'POST',
    body,
    defaultMessage: 'Could not send the cancellation alert',
  });
}

export function useCreateOpening() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOpening,
    onSuccess: (answer) => {
      queryClient.setQueryData(openingsKeys.detail(answer.data.id), answer.data);
      return queryClient.invalidateQueries({ queryKey: openingsKeys.list });
    },
  });
}
