import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Earnings } from '@waitlist/contract';
import { apiRequest } from '../../../lib/api-client.ts';

export type DashboardRangeChoice =
  | { range: 'week' | 'month' | '90d' }
  | { range: 'custom'; from: string; to: string };

export function earningsPath(choice: DashboardRangeChoice): string {
  const params = new URLSearchParams({ range: choice.range });
  if (choice.range === 'custom') {
    params.set('from', choice.from);
    params.set('to', choice.to);
  }
  return `/dashboard/earnings?${params.toString()}`;
}

/** GET /dashboard/earnings for a range in the business's time zone. */
export async function getEarnings(choice: DashboardRangeChoice, signal?: AbortSignal): Promise<Earnings> {
  const { data } = await apiRequest<{ success: true; data: Earnings }>(earningsPath(choice), {
    defaultMessage: 'Failed to load your earnings',
    signal,
  });
  return data;
}

export const earningsQueryOptions = (choice: DashboardRangeChoice) =>
  queryOptions({
    queryKey: ['dashboard', 'earnings', choice] as const,
    queryFn: ({ signal }) => getEarnings(choice, signal),
  });

export function useEarnings(choice: DashboardRangeChoice, enabled = true) {
  return useQuery({ ...earningsQueryOptions(choice), enabled });
}
