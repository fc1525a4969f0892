import { useMutation, useQueryClient } from '@tanstack/react-query';
import { billingMessages, type paymentMethodChangeResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { billingKeys } from './billing-keys.ts';

type PaymentMethodChangeAnswer = z.output<typeof paymentMethodChangeResponse>;

export function deletePaymentMethod(paymentMethodId: string): Promise<PaymentMethodChangeAnswer> {
  return apiRequest<PaymentMethodChangeAnswer>(
    `/stripe/payment-methods/${encodeURIComponent(paymentMethodId)}`,
    {
      method: 'DELETE',
      defaultMessage: billingMessages.deletePaymentMethodFailed,
    },
  );
}

export function useDeletePaymentMethod() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePaymentMethod,
    onSuccess: (answer) => queryClient.setQueryData(billingKeys.paymentMethods, answer.paymentMethods),
  });
}
