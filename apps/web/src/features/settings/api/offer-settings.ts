import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OfferSettings, offerSettingsBody, offerSettingsResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

type OfferSettingsAnswer = z.output<typeof offerSettingsResponse>;
const offerSettingsKey = ['settings', 'offers'] as const;

/** GET /settings/offers: when texts may go out and how many offers a customer gets a day. */
export async function getOfferSettings(signal?: AbortSignal): Promise<OfferSettings> {
  const answer = await apiRequest<OfferSettingsAnswer>('/settings/offers', {
    defaultMessage: 'Failed to load your offer rules',
    signal,
  });
  return answer.data;
}

export const offerSettingsQueryOptions = () =>
  queryOptions({ queryKey: offerSettingsKey, queryFn: ({ signal }) => getOfferSettings(signal) });

export const useOfferSettings = () => useQuery(offerSettingsQueryOptions());

/** PUT /settings/offers */
export function saveOfferSettings(body: z.input<typeof offerSettingsBody>) {
  return apiRequest<OfferSettingsAnswer>('/settings/offers', {
    method: 'PUT',
    body,
    defaultMessage: 'Could not save your offer rules',
  });
}

export function useSaveOfferSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveOfferSettings,
    onSuccess: (answer) => queryClient.setQueryData(offerSettingsKey, answer.data),
  });
}
