import { useMutation } from '@tanstack/react-query';
import { billingMessages, type PlanChangeBody, type redirectSessionResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiCall } from '../../../lib/api-client.ts';

/** The provider's hosted checkout page; it comes back to /subscription/success or /subscription/cancel. */
export const createCheckoutSession = apiCall<z.output<typeof redirectSessionResponse>, PlanChangeBody>(
  '/stripe/create-checkout-session',
  'POST',
  billingMessages.updateSubscriptionFailed,
);

export function useCreateCheckoutSession() {
  return useMutation({ mutationFn: createCheckoutSession });
}
