import { useMutation } from '@tanstack/react-query';
import { billingMessages } from '@waitlist/contract';
import { apiRequest } from '../../../lib/api-client.ts';

type SetupIntentAnswer = { success: true; clientSecret: string };

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
