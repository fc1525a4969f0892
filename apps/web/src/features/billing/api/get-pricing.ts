import { queryOptions, useQuery } from '@tanstack/react-query';
import { billingMessages, type Pricing, type pricingResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { billingKeys } from './billing-keys.ts';

type PricingAnswer = z.output<typeof pricingResponse>;

export async function getPricing(signal?: AbortSignal): Promise<Pricing> {
  const answer = await apiRequest<PricingAnswer>('/stripe/pricing', {
    defaultMessage: billingMessages.fetchPricingFailed,
    signal,
  });
  return answer.pricing;
}

export const pricingQueryOptions = () =>
  queryOptions({
    queryKey: billingKeys.pricing,
    queryFn: ({ signal }) => getPricing(signal),
    staleTime: 10 * 60_000,
    retry: false,
  });

export function usePricing() {
  return useQuery(pricingQueryOptions());
}
