import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type InboxMessage,
  inboxMessages,
  type inboxResponse,
  type inboxThreadResponse,
  type textMessageResponse,
} from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { inboxKeys } from './inbox-unread.ts';

export { inboxKeys, useUnreadReplies } from './inbox-unread.ts';

type InboxAnswer = z.output<typeof inboxResponse>;
type ThreadAnswer = z.output<typeof inboxThreadResponse>;

/** GET /inbox: conversations with customers who replied, newest first (the first page). */
export function getInbox(signal?: AbortSignal): Promise<InboxAnswer> {
  return apiRequest<InboxAnswer>('/inbox', { defaultMessage: inboxMessages.loadFailed, signal });
}

export function useInbox() {
  return useQuery({
    queryKey: inboxKeys.list,
    queryFn: ({ signal }) => getInbox(signal),
    // New replies arrive on their own; a few seconds is live enough at a front desk.
    refetchInterval: 15_000,
  });
}

/** GET /inbox/:id: one conversation, each reply with the alert it answered; reading it marks it read. */
export function useInboxThread(customerId: string | undefined) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: inboxKeys.thread(customerId ?? ''),
    enabled: Boolean(customerId),
    queryFn: async ({ signal }): Promise<ThreadAnswer> => {
      const answer = await apiRequest<ThreadAnswer>(`/inbox/${encodeURIComponent(customerId ?? '')}`, {
        defaultMessage: 'Failed to load the conversation',
        signal,
      });
      // The server marked it read: the badge and the list follow.
      void queryClient.invalidateQueries({ queryKey: inboxKeys.unread });
      void queryClient.invalidateQueries({ queryKey: inboxKeys.list });
      return answer;
    },
    refetchInterval: 5000,
  });
}

/** POST /inbox/:id/reply: the owner's answer, a text through the outbox. */
export function useInboxReply(customerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: string) =>
      apiRequest<z.output<typeof textMessageResponse>>(`/inbox/${encodeURIComponent(customerId)}/reply`, {
        method: 'POST',
        body: { body },
        defaultMessage: inboxMessages.sendFailed,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: inboxKeys.all }),
  });
}

export type { InboxMessage };
