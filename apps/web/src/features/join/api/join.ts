import { useMutation, useQuery } from '@tanstack/react-query';
import { customerWords, type JoinBody, type joinAnswer, type joinPageResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

type JoinPage = z.output<typeof joinPageResponse>['data'];

/** What a customer reads when a call fails without the server's own words (issue 25). */
const words = customerWords().join.page;

/** GET /join/:slug: the business's name, the consent wording, whether the waitlist is full. */
export function useJoinPage(slug: string) {
  return useQuery({
    queryKey: ['join', slug],
    queryFn: async ({ signal }): Promise<JoinPage> =>
      (
        await apiRequest<z.output<typeof joinPageResponse>>(`/join/${encodeURIComponent(slug)}`, {
          defaultMessage: words.loadFailedRetry,
          signal,
        })
      ).data,
    retry: false,
  });
}

/** POST /join/:slug: asks for the confirmation text. */
export function useJoin(slug: string) {
  return useMutation({
    mutationFn: (body: JoinBody) =>
      apiRequest<z.output<typeof joinAnswer>>(`/join/${encodeURIComponent(slug)}`, {
        method: 'POST',
        body,
        defaultMessage: words.sendFailed,
      }),
  });
}

/** Where the page's proof-of-work widget fetches its challenge (issue 24; our own server, no outside service). */
export const challengeUrl = (slug: string) => `/api/v1/join/${encodeURIComponent(slug)}/challenge`;

/** Where the link's QR code is served (public, like the link). */
export const qrUrl = (slug: string, format: 'svg' | 'png') =>
  `/api/v1/join/${encodeURIComponent(slug)}/qr.${format}`;
