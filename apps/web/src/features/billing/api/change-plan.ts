import { useMutation } from '@tanstack/react-query';
import { billingMessages, type PlanChangeBody, type SubscriptionChangeResponse } from '@waitlist/contract';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST /stripe/update-subscription-with-existing-payment: pays with the default card on file. */
export function changePlan(body: PlanChangeBody): Promise<SubscriptionChangeResponse> {
  return apiRequest<SubscriptionChangeResponse>('/stripe/update-subscription-with-existing-payment', {
    method: 'POST',
    body,
    defaultMessage: billingMessages.updateSubscriptionFailed,
  });
}

export function useChangePlan() {
  return useMutation({ mutationFn: changePlan });
}
