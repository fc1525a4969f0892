import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MessageTemplate, MessageTemplateKey } from '@waitlist/contract';
import { apiRequest } from '../../../lib/api-client.ts';
import { waitlistKeys } from './waitlist-keys.ts';

type TemplatesAnswer = { success: true; data: MessageTemplate[] };

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
  return apiRequest<{ success: true; data: MessageTemplate; message: string }>(
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
