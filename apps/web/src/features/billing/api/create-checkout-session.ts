import { useMutation } from '@tanstack/react-query';
import { billingMessages, type PlanChangeBody, type redirectSessionResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

type RedirectSessionAnswer = z.output<typeof redirectSessionResponse>;

/** The provider's hosted checkout page; it comes back to /subscription/success or /subscription/cancel. */
export function createCheckoutSession(body: PlanChangeBody): Promise<RedirectSessionAnswer> {
  return apiRequest<RedirectSessionAnswer>('/stripe/create-checkout-session', {
    method: 'POST',
    body,
    defaultMessage: billingMessages.updateSubscriptionFailed,
  });
}

export function useCreateCheckoutSession() {
  return useMutation({ mutationFn: createCheckoutSession });
}
