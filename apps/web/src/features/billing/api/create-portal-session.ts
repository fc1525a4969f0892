import { useMutation } from '@tanstack/react-query';
import { billingMessages, type redirectSessionResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

type RedirectSessionAnswer = z.output<typeof redirectSessionResponse>;

/** The provider's hosted billing portal (cards, invoices, cancellation), opened at data.url. */
export function createPortalSession(): Promise<RedirectSessionAnswer> {
  return apiRequest<RedirectSessionAnswer>('/stripe/create-portal-session', {
    method: 'POST',
    defaultMessage: billingMessages.createPortalSessionFailed,
  });
}

export function useCreatePortalSession() {
  return useMutation({ mutationFn: createPortalSession });
}
