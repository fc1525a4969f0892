import { useMutation, useQueryClient } from '@tanstack/react-query';
import { billingMessages, type paymentMethodChangeResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { billingKeys } from './billing-keys.ts';

type PaymentMethodChangeAnswer = z.output<typeof paymentMethodChangeResponse>;

/** Attaches a confirmed card (a Stripe PaymentMethod id, or the local provider's). */
export function addPaymentMethod(paymentMethodId: string): Promise<PaymentMethodChangeAnswer> {
  return apiRequest<PaymentMethodChangeAnswer>('/stripe/payment-methods', {
    method: 'POST',
    body: { paymentMethodId },
    defaultMessage: billingMessages.addPaymentMethodFailed,
  });
}

export function useAddPaymentMethod() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addPaymentMethod,
    onSuccess: (answer) => queryClient.setQueryData(billingKeys.paymentMethods, answer.paymentMethods),
  });
}
