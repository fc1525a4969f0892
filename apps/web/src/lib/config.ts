import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BillingConfig } from '@waitlist/contract';
import { apiRequest } from './api-client.ts';

/**
 * GET /config: what this server's providers are, nothing secret. Shared (lib/) because several
 * features read it: auth (social buttons, local mailbox) and billing (which card form to show).
 */
export type PublicConfig = {
  success: true;
  googleClientId: string | null;
  facebookAppId: string | null;
  appleClientId: string | null;
  emailProvider: 'local' | 'smtp';
  /** 'local': business numbers come from the 555-01xx test range and verify at once. */
  smsProvider?: 'local' | 'plivo';
  billing: BillingConfig;
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
