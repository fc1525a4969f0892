import { useMutation } from '@tanstack/react-query';
import { billingMessages, type localConfirmSetupResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

export type LocalCardDetails = {
  clientSecret: string;
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
};

type LocalConfirmAnswer = z.output<typeof localConfirmSetupResponse>;

/**
 * Local billing only: confirms a SetupIntent with a test card, the role Stripe.js's confirmCardSetup
 * plays with Stripe. A declined card answers with its reason ("Your card was declined.").
 */
export function confirmLocalSetup(card: LocalCardDetails): Promise<LocalConfirmAnswer> {
  return apiRequest<LocalConfirmAnswer>('/billing/local/setup-intents/confirm', {
    method: 'POST',
    body: card,
    defaultMessage: billingMessages.addPaymentMethodFailed,
  });
}

export function useConfirmLocalSetup() {
  return useMutation({ mutationFn: confirmLocalSetup });
}
