import { useMutation } from '@tanstack/react-query';
import { billingMessages, type SubscriptionActionResponse } from '@waitlist/contract';
import { apiRequest } from '../../../lib/api-client.ts';

/** Undoes a cancellation while the period has not ended (cancel_at_period_end). */
export function resumeSubscription(): Promise<SubscriptionActionResponse> {
  return apiRequest<SubscriptionActionResponse>('/stripe/resume-subscription', {
    method: 'POST',
    defaultMessage: billingMessages.resumeSubscriptionFailed,
  });
}

export function useResumeSubscription() {
  return useMutation({ mutationFn: resumeSubscription });
}
