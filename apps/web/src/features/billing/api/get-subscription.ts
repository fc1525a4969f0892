import { queryOptions, type UseQueryOptions, useQuery } from '@tanstack/react-query';
import { billingMessages, type Subscription, type subscriptionResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { billingKeys } from './billing-keys.ts';

type SubscriptionAnswer = z.output<typeof subscriptionResponse>;

/** The paid subscription, or null on the free trial. */
export async function getSubscription(signal?: AbortSignal): Promise<Subscription | null> {
  const answer = await apiRequest<SubscriptionAnswer>('/stripe/subscription', {
    defaultMessage: billingMessages.loadSubscriptionFailed,
    signal,
  });
  return answer.subscription;
}

export const subscriptionQueryOptions = () =>
  queryOptions({
    queryKey: billingKeys.subscription,
    queryFn: ({ signal }) => getSubscription(signal),
  });

type SubscriptionQueryExtras = Pick<
  UseQueryOptions<Subscription | null, Error, Subscription | null, typeof billingKeys.subscription>,
  'refetchInterval'
>;

export function useSubscription(extras: SubscriptionQueryExtras = {}) {
  return useQuery({ ...subscriptionQueryOptions(), ...extras });
}
