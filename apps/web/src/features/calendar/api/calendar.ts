import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CalendarConnectBody,
  CalendarDay,
  CalendarSettingsBody,
  calendarConnectionResponse,
  calendarConnectionsResponse,
  calendarDayResponse,
  calendarPendingConnectionResponse,
  calendarProposalResponse,
  calendarProposalsResponse,
  OpeningPreview,
  openingPreviewResponse,
} from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

type ConnectionsAnswer = z.output<typeof calendarConnectionsResponse>;
type ConnectionAnswer = z.output<typeof calendarConnectionResponse>;
type ProposalsAnswer = z.output<typeof calendarProposalsResponse>;
type ProposalAnswer = z.output<typeof calendarProposalResponse>;

export const calendarKeys = {
  connections: ['calendar', 'connections'] as const,
  proposals: ['calendar', 'proposals'] as const,
  days: ['calendar', 'day'] as const,
  day: (date: string, days: number) => ['calendar', 'day', date, days] as const,
};

/** GET /calendar/connections: the connected calendars, and the kinds this server can connect. */
export const connectionsQueryOptions = () =>
  queryOptions({
    queryKey: calendarKeys.connections,
    queryFn: ({ signal }) =>
      apiRequest<ConnectionsAnswer>('/calendar/connections', {
        defaultMessage: 'Failed to load your calendars',
        signal,
      }),
  });
export const useCalendarConnections = () => useQuery(connectionsQueryOptions());

/** POST /calendar/connections */
export function connectCalendar(body: CalendarConnectBody) {
  return apiRequest<ConnectionAnswer>('/calendar/connections', {
    method: 'POST',
    body,
    defaultMessage: 'Could not connect that calendar',
  });
}

/** POST /calendar/oauth/:kind/start: the provider's consent screen for this owner (then a full-page trip). */
export async function oauthStartUrl(kind: 'google' | 'microsoft') {
  const answer = await apiRequest<{ success: true; url: string }>(`/calendar/oauth/${kind}/start`, {
    method: 'POST',
    defaultMessage: 'Could not start connecting that calendar',
  });
  return answer.url;
}

/**
 * GET /calendar/oauth/pending/:id (issue 38): the account Google or Microsoft signed in, waiting for the owner's
 * yes before it is connected. Read once: an answer does not change until the owner confirms or cancels it.
 */
export const pendingConnectionQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['calendar', 'pending', id] as const,
    queryFn: async ({ signal }) =>
      (
        await apiRequest<z.output<typeof calendarPendingConnectionResponse>>(
          `/calendar/oauth/pending/${encodeURIComponent(id)}`,
          { defaultMessage: 'Could not load the calendar waiting to be connected', signal },
        )
      ).data,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
export const usePendingConnection = (id: string) => useQuery(pendingConnectionQueryOptions(id));

/** POST /calendar/oauth/pending/:id/confirm: the owner's yes connects it. */
export function confirmPendingConnection(id: string) {
  return apiRequest<ConnectionAnswer>(`/calendar/oauth/pending/${encodeURIComponent(id)}/confirm`, {
    method: 'POST',
    defaultMessage: 'Could not connect that calendar',
  });
}

/** DELETE /calendar/oauth/pending/:id: the owner's no forgets it. */
export function cancelPendingConnection(id: string) {
  return apiRequest<{ success: true; message?: string }>(
    `/calendar/oauth/pending/${encodeURIComponent(id)}`,
    {
      method: 'DELETE',
      defaultMessage: 'Could not cancel connecting that calendar',
    },
  );
}

/** PATCH /calendar/connections/:id */
export function saveCalendarSettings({ id, body }: { id: string; body: CalendarSettingsBody }) {
  return apiRequest<ConnectionAnswer>(`/calendar/connections/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body,
    defaultMessage: 'Could not save the calendar settings',
  });
}

/** DELETE /calendar/connections/:id */
export function disconnectCalendar(id: string) {
  return apiRequest<{ success: true; message?: string }>(`/calendar/connections/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    defaultMessage: 'Could not disconnect the calendar',
  });
}

/** POST /calendar/connections/:id/sync: read the calendar now. */
export function syncCalendar(id: string) {
  return apiRequest<ConnectionAnswer>(`/calendar/connections/${encodeURIComponent(id)}/sync`, {
    method: 'POST',
    defaultMessage: 'Could not check the calendar',
  });
}

/** Each change to a connection refreshes the list, the day view and the waiting cancellations. */
function useConnectionMutation<Input, Output>(mutationFn: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: calendarKeys.connections }),
        queryClient.invalidateQueries({ queryKey: calendarKeys.days }),
        queryClient.invalidateQueries({ queryKey: calendarKeys.proposals }),
      ]),
  });
}

export const useConnectCalendar = () => useConnectionMutation(connectCalendar);
export const useSaveCalendarSettings = () => useConnectionMutation(saveCalendarSettings);
export const useDisconnectCalendar = () => useConnectionMutation(disconnectCalendar);
export const useSyncCalendar = () => useConnectionMutation(syncCalendar);
export const useConfirmPendingConnection = () => useConnectionMutation(confirmPendingConnection);
export const useCancelPendingConnection = () => useConnectionMutation(cancelPendingConnection);

/** GET /calendar/proposals: cancellations waiting for the owner (proposed) or about to open (scheduled). */
export const proposalsQueryOptions = () =>
  queryOptions({
    queryKey: calendarKeys.proposals,
    queryFn: async ({ signal }) => {
      const answer = await apiRequest<ProposalsAnswer>('/calendar/proposals', {
        defaultMessage: 'Failed to load the cancellations',
        signal,
      });
      return { proposals: answer.data, timeZone: answer.timeZone };
    },
    // A cancellation arrives by itself: look again every half minute while the page is open.
    refetchInterval: 30_000,
  });
export const useCalendarProposals = () => useQuery(proposalsQueryOptions());

/** POST /calendar/proposals/:id/preview: who "Text the waitlist" would text, and what; nothing is sent. */
export async function previewProposal(id: string): Promise<OpeningPreview> {
  const answer = await apiRequest<z.output<typeof openingPreviewResponse>>(
    `/calendar/proposals/${encodeURIComponent(id)}/preview`,
    { method: 'POST', defaultMessage: 'Could not work out who gets the text' },
  );
  return answer.data;
}

export const usePreviewProposal = () => useMutation({ mutationFn: previewProposal });

/** POST /calendar/proposals/:id/open (text the waitlist) or /dismiss (no texts; also stops a scheduled one). */
export function answerProposal({ id, action }: { id: string; action: 'open' | 'dismiss' }) {
  return apiRequest<ProposalAnswer>(`/calendar/proposals/${encodeURIComponent(id)}/${action}`, {
    method: 'POST',
    defaultMessage: action === 'open' ? 'Could not open the slot' : 'Could not dismiss it',
  });
}

export function useAnswerProposal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: answerProposal,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: calendarKeys.proposals }),
        queryClient.invalidateQueries({ queryKey: calendarKeys.days }),
        queryClient.invalidateQueries({ queryKey: ['openings'] }),
      ]),
  });
}

/** GET /calendar/day?date=&days=: one day (a phone) or a week (a wide screen) at a glance. */
export const dayQueryOptions = (date: string, days: number) =>
  queryOptions({
    queryKey: calendarKeys.day(date, days),
    queryFn: async ({ signal }): Promise<CalendarDay> =>
      (
        await apiRequest<z.output<typeof calendarDayResponse>>(`/calendar/day?date=${date}&days=${days}`, {
          defaultMessage: 'Failed to load your day',
          signal,
        })
      ).data,
  });
export const useCalendarDay = (date: string, days: number) => useQuery(dayQueryOptions(date, days));
