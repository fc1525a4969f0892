import { queryOptions, useQuery } from '@tanstack/react-query';
import type { unreadResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * The header's unread badge (issue 15). Kept apart from the inbox's other calls, with types only from the
 * contract, so the header pulls no schemas into the first screen's JavaScript.
 */
export const inboxKeys = {
  all: ['inbox'] as const,
  list: ['inbox', 'list'] as const,
  unread: ['inbox', 'unread'] as const,
  thread: (customerId: string) => ['inbox', 'thread', customerId] as const,
};

export const unreadQueryOptions = queryOptions({
  queryKey: inboxKeys.unread,
  queryFn: async ({ signal }) =>
    (
      await apiRequest<z.output<typeof unreadResponse>>('/inbox/unread', {
        defaultMessage: 'Failed to load your inbox.',
        signal,
      })
    ).data.unread,
  refetchInterval: 30_000,
  refetchOnWindowFocus: true,
});

/** Unread customer replies, polled while `enabled` (full owners only). */
export function useUnreadReplies(enabled: boolean) {
  return useQuery({ ...unreadQueryOptions, enabled });
}
