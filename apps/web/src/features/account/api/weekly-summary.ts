import { useMutation } from '@tanstack/react-query';
import {
  type WeeklySummaryBody,
  weeklySummaryMessages,
  type weeklySummaryResponse,
} from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

type WeeklySummaryAnswer = z.output<typeof weeklySummaryResponse>;

/** PUT /dashboard/weekly-summary: the Monday summary email on or off (issue 14). */
export function setWeeklySummary(body: WeeklySummaryBody): Promise<WeeklySummaryAnswer> {
  return apiRequest<WeeklySummaryAnswer>('/dashboard/weekly-summary', {
    method: 'PUT',
    body,
    defaultMessage: weeklySummaryMessages.saveFailed,
  });
}

export function useWeeklySummaryToggle() {
  return useMutation({ mutationFn: (enabled: boolean) => setWeeklySummary({ enabled }) });
}
