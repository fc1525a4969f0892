import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BillingConfig, PlanCatalogue } from '@waitlist/contract';
import { apiRequest } from './api-client.ts';

/**
 * GET /config: what the web app needs to render, nothing secret and no provider name (issue 24). Shared
 * (lib/) because several features read it: auth (social buttons, local mailbox) and billing (which card
 * form to show, the local phone's test numbers).
 */
export type PublicConfig = {
  success: true;
  googleClientId: string | null;
  facebookAppId: string | null;
  appleClientId: string | null;
  /** Emails land in the local mailbox (/dev/mailbox). */
  localMailbox: boolean;
  /** Business numbers come from the 555-01xx test range and verify at once (the local phone). */
  localPhone: boolean;
  billing: BillingConfig;
  /** The operator's plan catalogue (issue 39): names, waitlist size, alerts a day, texts included. */
  plans: PlanCatalogue;
  /** What one text segment costs, for the templates' cost per alert (issue 39). */
  smsSegmentPrice: { amount: number; currency: string };
};

export function getConfig(signal?: AbortSignal): Promise<PublicConfig> {
  return apiRequest<PublicConfig>('/config', { defaultMessage: 'Failed to load configuration', signal });
}

export const configQueryOptions = () =>
  queryOptions({
    queryKey: ['config'],
    queryFn: ({ signal }) => getConfig(signal),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

export function useConfig() {
  return useQuery(configQueryOptions());
}
