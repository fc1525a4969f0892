import { useMutation } from '@tanstack/react-query';
import type { CreateOpeningBody, OpeningPreview, openingPreviewResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST /openings/preview: who the alert would text, in what order and when; nothing is written or sent. */
export async function previewOpening(body: CreateOpeningBody): Promise<OpeningPreview> {
  const answer = await apiRequest<z.output<typeof openingPreviewResponse>>('/openings/preview', {
    method: 'POST',
    body,
    defaultMessage: 'Could not work out who gets the text',
  });
  return answer.data;
}

export const usePreviewOpening = () => useMutation({ mutationFn: previewOpening });
