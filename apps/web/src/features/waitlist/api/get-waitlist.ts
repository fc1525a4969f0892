import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type {
  CustomerLanguage,
  CustomerStatus,
  ListedCustomer,
  waitlistListResponse,
} from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { waitlistKeys } from './waitlist-keys.ts';

/** The search, the status chip and the language (issue 28); '' is all. */
export type WaitlistFilters = {
  search: string;
  status: CustomerStatus | '';
  language: CustomerLanguage | '';
};

/** GET /waitlist: the customers in waitlist order, with the plan's cap and read-only state. */
export type Waitlist = {
  /** With each one's real place in line, whatever the search shows (issue 27). */
  customers: ListedCustomer[];
  count: number;
  cap: number | null;
  plan: string;
  readOnly: boolean;
  readOnlyReason: string | null;
};

type WaitlistAnswer = z.output<typeof waitlistListResponse>;

export async function getWaitlist(filters: WaitlistFilters, signal?: AbortSignal): Promise<Waitlist> {
  const params = new URLSearchParams();
  if (filters.search.trim()) params.set('search', filters.search.trim());
  if (filters.status) params.set('status', filters.status);
  if (filters.language) params.set('language', filters.language);
  const query = params.toString();
  const answer = await apiRequest<WaitlistAnswer>(`/waitlist${query ? `?${query}` : ''}`, {
    defaultMessage: 'Failed to load your waitlist',
    signal,
  });
  return {
    customers: answer.data,
    count: answer.count,
    cap: answer.cap,
    plan: answer.plan,
    readOnly: answer.readOnly,
    readOnlyReason: answer.readOnlyReason ?? null,
  };
}

export const waitlistQueryOptions = (filters: WaitlistFilters) =>
  queryOptions({
    queryKey: waitlistKeys.list(filters),
    queryFn: ({ signal }) => getWaitlist(filters, signal),
    // Typing in the search box keeps the last list on screen instead of flashing a skeleton.
    placeholderData: keepPreviousData,
  });

export function useWaitlist(filters: WaitlistFilters) {
  return useQuery(waitlistQueryOptions(filters));
}
