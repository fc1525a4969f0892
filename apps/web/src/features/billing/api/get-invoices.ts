import { queryOptions, useQuery } from '@tanstack/react-query';
import { billingMessages, type Invoice, type invoicesResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { billingKeys } from './billing-keys.ts';

type InvoicesAnswer = z.output<typeof invoicesResponse>;

export async function getInvoices(signal?: AbortSignal): Promise<Invoice[]> {
  const answer = await apiRequest<InvoicesAnswer>('/stripe/invoices', {
    defaultMessage: billingMessages.fetchInvoicesFailed,
    signal,
  });
  return answer.invoices;
}

export const invoicesQueryOptions = () =>
  queryOptions({
    queryKey: billingKeys.invoices,
    queryFn: ({ signal }) => getInvoices(signal),
  });

export function useInvoices() {
  return useQuery(invoicesQueryOptions());
}
