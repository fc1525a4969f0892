import { useMutation } from '@tanstack/react-query';
import { billingMessages, type setupIntentResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

type SetupIntentAnswer = z.output<typeof setupIntentResponse>;

/** Starts saving a card: the client secret the card confirmation needs (Stripe.js or the local form). */
export function createSetupIntent(): Promise<SetupIntentAnswer> {
  return apiRequest<SetupIntentAnswer>('/stripe/setup-intent', {
    method: 'POST',
    defaultMessage: billingMessages.createSetupIntentFailed,
  });
}

export function useCreateSetupIntent() {
  return useMutation({ mutationFn: createSetupIntent });
}
