import { useMutation } from '@tanstack/react-query';
import { billingMessages, type PlanChangeBody, type SubscriptionChangeResponse } from '@waitlist/contract';
import { apiRequest } from '../../../lib/api-client.ts';

export type UpdateSubscriptionBody = PlanChangeBody & { paymentMethodId?: string };

/**
 * POST /stripe/update-subscription: a plan change paid with a named card. The screens use the
 * existing-payment call (the default card); this one is kept for clients that pick a card.
 */
export function updateSubscription(body: UpdateSubscriptionBody): Promise<SubscriptionChangeResponse> {
  return apiRequest<SubscriptionChangeResponse>('/stripe/update-subscription', {
    method: 'POST',
    body,
    defaultMessage: billingMessages.updateSubscriptionFailed,
  });
}

export function useUpdateSubscription() {
  return useMutation({ mutationFn: updateSubscription });
}
