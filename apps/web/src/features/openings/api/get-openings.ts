import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AlertsToday, Opening, openingsListResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { LIVE_POLL_MS, openingsKeys } from './openings-keys.ts';

export type OpeningsOverview = {
  openings: Opening[];
  alertsToday: AlertsToday;
  timeZone: string;
  readOnly: boolean;
  readOnlyReason: string | null;
};

type OpeningsAnswer = z.output<typeof openingsListResponse>;

/** GET /openings: recent openings with their live stats, and today's alert count. */
export async function getOpenings(signal?: AbortSignal): Promise<OpeningsOverview> {
  const { data, alertsToday, timeZone, readOnly, readOnlyReason } = await apiRequest<OpeningsAnswer>(
    '/openings',
    { defaultMessage: 'Failed to load your openings', signal },
  );
  return { openings: data, alertsToday, timeZone, readOnly, readOnlyReason: readOnlyReason ?? null };
}

export const openingsQueryOptions = () =>
  queryOptions({
    queryKey: openingsKeys.list,
    queryFn: ({ signal }) => getOpenings(signal),
    // Live while any alert is still open; quiet once every opening is settled.
    refetchInterval: (query) =>
      query.state.data?.openings.some((opening) => opening.status === 'open') ? LIVE_POLL_MS : false,
  });

export function useOpenings() {
  return useQuery(openingsQueryOptions());
}
