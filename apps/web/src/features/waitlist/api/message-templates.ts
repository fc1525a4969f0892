import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Locale,
  MessageTemplate,
  MessageTemplateKey,
  messageTemplateResponse,
  messageTemplatesResponse,
  plainLettersResponse,
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

/** PUT /message-templates/:key, in one language (issue 28; English when not given). */
export function updateMessageTemplate({
  key,
  body,
  language = 'en',
}: {
  key: MessageTemplateKey;
  body: string;
  language?: Locale;
}) {
  return apiRequest<z.output<typeof messageTemplateResponse>>(
    `/message-templates/${encodeURIComponent(key)}`,
    {
      method: 'PUT',
      body: { body, language },
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

type PlainLettersAnswer = z.output<typeof plainLettersResponse>;
const plainLettersKey = ['waitlist', 'settings', 'plain-letters'] as const;

/** GET /settings/plain-letters: whether Spanish texts drop the accents GSM-7 lacks (issue 28). */
export function usePlainSpanishLetters() {
  return useQuery({
    queryKey: plainLettersKey,
    queryFn: async ({ signal }) =>
      (
        await apiRequest<Omit<PlainLettersAnswer, 'message'>>('/settings/plain-letters', {
          defaultMessage: 'Failed to load the Spanish letters setting',
          signal,
        })
      ).data.plainSpanishLetters,
  });
}

/** PUT /settings/plain-letters. */
export function useSetPlainSpanishLetters() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (plainSpanishLetters: boolean) =>
      apiRequest<PlainLettersAnswer>('/settings/plain-letters', {
        method: 'PUT',
        body: { plainSpanishLetters },
        defaultMessage: 'Could not save the Spanish letters setting',
      }),
    // The box shows the owner's choice at once, and goes back if the save fails.
    onMutate: async (plain) => {
      await queryClient.cancelQueries({ queryKey: plainLettersKey });
      const before = queryClient.getQueryData<boolean>(plainLettersKey);
      queryClient.setQueryData(plainLettersKey, plain);
      return { before };
    },
    onError: (_error, _plain, context) => queryClient.setQueryData(plainLettersKey, context?.before ?? false),
    onSuccess: (answer) => queryClient.setQueryData(plainLettersKey, answer.data.plainSpanishLetters),
  });
}
