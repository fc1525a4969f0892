import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  MessageTemplate,
  MessageTemplateKey,
  messageTemplateResponse,
  messageTemplatesResponse,
} from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { waitlistKeys } from './waitlist-keys.ts';

type TemplatesAnswer = z.output<typeof messageTemplatesResponse>;

/** GET /message-templates: the owner's editable texts, with {name} {business} {time}. */
export async function getMessageTemplates(signal?: AbortSignal): Promise<MessageTemplate[]> {
  const answer = await apiRequest<TemplatesAnswer>('/message-templates', {
    defaultMessage: 'Failed to load your message templates',
    signal,
  });
  return answer.data;
}

export const messageTemplatesQueryOptions = () =>
  queryOptions({ queryKey: waitlistKeys.templates, queryFn: ({ signal }) => getMessageTemplates(signal) });

export function useMessageTemplates() {
  return useQuery(messageTemplatesQueryOptions());
}

/** PUT /message-templates/:key. */
export function updateMessageTemplate({ key, body }: { key: MessageTemplateKey; body: string }) {
  return apiRequest<z.output<typeof messageTemplateResponse>>(
    `/message-templates/${encodeURIComponent(key)}`,
    {
      method: 'PUT',
      body: { body },
      defaultMessage: 'Could not save the template',
    },
  );
}

export function useUpdateMessageTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMessageTemplate,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: waitlistKeys.templates }),
  });
}
