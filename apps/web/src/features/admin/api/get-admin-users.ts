import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type AdminUsersQueryInput, type AdminUsersResponse, authMessages } from '@waitlist/contract';
import { apiRequest } from '../../../lib/api-client.ts';

export const adminKeys = {
  all: ['admin'] as const,
  users: (query: AdminUsersQueryInput) => ['admin', 'users', query] as const,
};

/** GET /admin/users (SPEC §7): one page of every user, filtered, searched and sorted on the server. */
export async function getAdminUsers(query: AdminUsersQueryInput, signal?: AbortSignal) {
  const params = new URLSearchParams(
    Object.entries(query).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
  const queryString = params.toString();
  return apiRequest<AdminUsersResponse>(`/admin/users${queryString ? `?${queryString}` : ''}`, {
    defaultMessage: authMessages.fetchUsersFailed,
    signal,
  });
}

export const adminUsersQueryOptions = (query: AdminUsersQueryInput) =>
  queryOptions({
    queryKey: adminKeys.users(query),
    queryFn: ({ signal }) => getAdminUsers(query, signal),
    // The current page stays on screen while the next one loads, instead of flashing a skeleton.
    placeholderData: keepPreviousData,
  });

export function useAdminUsers(query: AdminUsersQueryInput) {
  return useQuery(adminUsersQueryOptions(query));
}
