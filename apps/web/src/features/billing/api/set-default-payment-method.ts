import { useMutation, useQueryClient } from '@tanstack/react-query';
import { billingMessages, type paymentMethodChangeResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { billingKeys } from './billing-keys.ts';

type PaymentMethodChangeAnswer = z.output<typeof paymentMethodChangeResponse>;

export function setDefaultPaymentMethod(paymentMethodId: string): Promise<PaymentMethodChangeAnswer> {
  return apiRequest<PaymentMethodChangeAnswer>('/stripe/payment-methods/default', {
    method: 'POST',
    body: { paymentMethodId },
    defaultMessage: billingMessages.setDefaultPaymentMethodFailed,
  });
}

export function useSetDefaultPaymentMethod() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setDefaultPaymentMethod,
    onSuccess: (answer) => queryClient.setQueryData(billingKeys.paymentMethods, answer.paymentMethods),
  });
}
