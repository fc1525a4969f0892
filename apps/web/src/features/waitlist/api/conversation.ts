import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Customer, conversationResponse, Message, textMessageResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { waitlistKeys } from './waitlist-keys.ts';

export type Conversation = { customer: Customer; messages: Message[] };
type ConversationAnswer = z.output<typeof conversationResponse>;

/** GET /waitlist/:id/messages: every text to and from one customer, oldest first. */
export async function getConversation(customerId: string, signal?: AbortSignal): Promise<Conversation> {
  const answer = await apiRequest<ConversationAnswer>(
    `/waitlist/${encodeURIComponent(customerId)}/messages`,
    {
      defaultMessage: 'Failed to load the conversation',
      signal,
    },
  );
  return { customer: answer.customer, messages: answer.data };
}

export const conversationQueryOptions = (customerId: string) =>
  queryOptions({
    queryKey: waitlistKeys.conversation(customerId),
    queryFn: ({ signal }) => getConversation(customerId, signal),
    // Delivery reports and replies arrive on their own; a few seconds is live enough at a front desk.
    refetchInterval: 5000,
  });

export function useConversation(customerId: string) {
  return useQuery(conversationQueryOptions(customerId));
}

/** POST /waitlist/:id/messages: one text to one customer. */
export function sendText({ customerId, body }: { customerId: string; body: string }) {
  return apiRequest<z.output<typeof textMessageResponse>>(
    `/waitlist/${encodeURIComponent(customerId)}/messages`,
    { method: 'POST', body: { body }, defaultMessage: 'Could not send the text' },
  );
}

export function useSendText() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendText,
    onSuccess: (_answer, { customerId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: waitlistKeys.conversation(customerId) }),
        queryClient.invalidateQueries({ queryKey: waitlistKeys.lists }),
      ]),
  });
}
