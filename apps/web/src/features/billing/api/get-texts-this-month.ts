import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Earnings } from '@waitlist/contract';
import { apiRequest } from '../../../lib/api-client.ts';

/** This month's text segments (the business's calendar month), which a plan's texts included count (issue 39). */
export type TextsThisMonth = { segmentsSent: number; from: string; to: string };

export async function getTextsThisMonth(signal?: AbortSignal): Promise<TextsThisMonth> {
  const { data } = await apiRequest<{ success: true; data: Earnings }>('/dashboard/earnings?range=month', {
    defaultMessage: 'Failed to load this month’s texts',
    signal,
  });
  const { segmentsSent, from, to } = data.period;
  return { segmentsSent, from, to };
}

export function useTextsThisMonth(enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: ['billing', 'texts-this-month'] as const,
      queryFn: ({ signal }) => getTextsThisMonth(signal),
      staleTime: 60_000,
      enabled,
    }),
  );
}
