import { useMutation } from '@tanstack/react-query';
import { billingMessages, type SubscriptionActionResponse } from '@waitlist/contract';
import { apiRequest } from '../../../lib/api-client.ts';

/** Cancels at the end of the period: the plan stays active until then. */
export function cancelSubscription(): Promise<SubscriptionActionResponse> {
  return apiRequest<SubscriptionActionResponse>('/stripe/cancel-subscription', {
    method: 'POST',
    defaultMessage: billingMessages.cancelSubscriptionFailed,
  });
}

export function useCancelSubscription() {
  return useMutation({ mutationFn: cancelSubscription });
}
