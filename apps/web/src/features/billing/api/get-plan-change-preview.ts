import { useQuery } from '@tanstack/react-query';
import {
  type BillingPeriod,
  billingMessages,
  type PlanChangePreview,
  type PlanType,
  type planChangePreviewResponse,
} from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { billingKeys } from './billing-keys.ts';

type PreviewAnswer = z.output<typeof planChangePreviewResponse>;

/**
 * GET /stripe/plan-change-preview (issue 27): what confirming this change charges today, asked each time the
 * dialog opens (a proration changes by the second), refetched with the rest of billing after a change.
 */
export function usePlanChangePreview(planType: PlanType, billingPeriod: BillingPeriod) {
  return useQuery({
    queryKey: [...billingKeys.all, 'plan-change-preview', planType, billingPeriod] as const,
    queryFn: async ({ signal }): Promise<PlanChangePreview> =>
      (
        await apiRequest<PreviewAnswer>(
          `/stripe/plan-change-preview?${new URLSearchParams({ planType, billingPeriod })}`,
          { defaultMessage: billingMessages.planPreviewFailed, signal },
        )
      ).data,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}
