import { useQueryClient } from '@tanstack/react-query';
import type { Customer } from '@waitlist/contract';
import { useCallback } from 'react';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { restoreCustomer } from '../api/restore-customer.ts';
import { waitlistKeys } from '../api/waitlist-keys.ts';

/**
 * Puts a removed customer back in line and says so (issue 27): the Undo of the "Marcus removed" toast and
 * "Restore" on a removed row. It needs only the app's query client and toasts, so the Undo still works after
 * the dialog that removed the customer has closed.
 */
export function useRestoreCustomerAction() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useCallback(
    async (customer: Pick<Customer, 'id' | 'name'>) => {
      try {
        await restoreCustomer(customer.id);
        toast.success(`${customer.name} is back on the waitlist`);
      } catch (error) {
        toast.error(screenErrorMessage(error, `Could not put ${customer.name} back on the waitlist.`));
      } finally {
        await queryClient.invalidateQueries({ queryKey: waitlistKeys.all });
      }
    },
    [queryClient, toast],
  );
}

/** How long the "Marcus removed" toast offers its Undo; the list's "Restore" stays after that. */
export const UNDO_TOAST_MS = 10_000;
