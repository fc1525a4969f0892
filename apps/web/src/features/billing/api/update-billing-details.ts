import { useMutation } from '@tanstack/react-query';
import { type BillingDetailsBody, billingMessages } from '@waitlist/contract';
import { apiRequest } from '../../../lib/api-client.ts';

type MessageAnswer = { success: true; message: string };

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
