import { useMutation } from '@tanstack/react-query';
import { type BillingDetailsBody, billingMessages, type messageResponse } from '@waitlist/contract';
import type { z } from 'zod';
import { apiCall } from '../../../lib/api-client.ts';

/** The name, email and address on invoices. No screen of the SPEC edits them yet (§7 lists the call). */
export const updateBillingDetails = apiCall<z.output<typeof messageResponse>, BillingDetailsBody>(
  '/stripe/update-billing-details',
  'POST',
  billingMessages.updateBillingDetailsFailed,
);

export function useUpdateBillingDetails() {
  return useMutation({ mutationFn: updateBillingDetails });
}
