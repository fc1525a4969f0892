import { queryOptions, useQuery } from '@tanstack/react-query';
import { billingMessages, type PaymentMethod, type paymentMethodsResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { billingKeys } from './billing-keys.ts';

export type PaymentMethodsAnswer = z.output<typeof paymentMethodsResponse>;

export async function getPaymentMethods(signal?: AbortSignal): Promise<PaymentMethod[]> {
  const answer = await apiRequest<PaymentMethodsAnswer>('/stripe/payment-methods', {
    defaultMessage: billingMessages.fetchPaymentMethodsFailed,
    signal,
  });
  return answer.paymentMethods;
}

export const paymentMethodsQueryOptions = () =>
  queryOptions({
    queryKey: billingKeys.paymentMethods,
    queryFn: ({ signal }) => getPaymentMethods(signal),
  });

export function usePaymentMethods() {
  return useQuery(paymentMethodsQueryOptions());
}
