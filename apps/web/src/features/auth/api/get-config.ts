import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** GET /config. Not in the contract package yet (see the issue 3 report). */
export type PublicConfig = {
  success: true;
  googleClientId: string | null;
  facebookAppId: string | null;
  appleClientId: string | null;
  emailProvider: 'local' | 'smtp';
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
