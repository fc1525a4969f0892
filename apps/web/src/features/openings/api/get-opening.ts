import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OpeningDetail, openingResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { LIVE_POLL_MS, openingsKeys } from './openings-keys.ts';

type OpeningAnswer = z.output<typeof openingResponse>;

/** GET /openings/:id: one opening with every customer offered it. */
export async function getOpening(id: string, signal?: AbortSignal): Promise<OpeningDetail> {
  const answer = await apiRequest<OpeningAnswer>(`/openings/${encodeURIComponent(id)}`, {
    defaultMessage: 'Failed to load the opening',
    signal,
  });
  return answer.data;
}

export const openingQueryOptions = (id: string) =>
  queryOptions({
    queryKey: openingsKeys.detail(id),
    queryFn: ({ signal }) => getOpening(id, signal),
    refetchInterval: (query) => (query.state.data?.status === 'open' ? LIVE_POLL_MS : false),
  });

export function useOpening(id: string) {
  return useQuery(openingQueryOptions(id));
}
