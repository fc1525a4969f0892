import { useMutation } from '@tanstack/react-query';
import { type BillingDetailsBody, billingMessages, type messageResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

type MessageAnswer = z.output<typeof messageResponse>;

/** The name, email and address on invoices. No screen of the SPEC edits them yet (§7 lists the call). */
export function updateBillingDetails(body: BillingDetailsBody): Promise<MessageAnswer> {
  return apiRequest<MessageAnswer>('/stripe/update-billing-details', {
    method: 'POST',
    body,
    defaultMessage: billingMessages.updateBillingDetailsFailed,
  });
}

export function useUpdateBillingDetails() {
  return useMutation({ mutationFn: updateBillingDetails });
}
