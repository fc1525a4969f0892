import { useQuery } from '@tanstack/react-query';
import type { joinLinkResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

/** GET /join-link: the business's public join link (made on first use), its poster and QR codes. */
export function useJoinLink() {
  return useQuery({
    queryKey: ['waitlist', 'join-link'],
    queryFn: async ({ signal }) =>
      (
        await apiRequest<z.output<typeof joinLinkResponse>>('/join-link', {
          defaultMessage: 'Failed to load your join link.',
          signal,
        })
      ).data,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
