import { billingMessages } from '@waitlist/contract';
import { useCallback } from 'react';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';

/**
 * Sends one of the owner's confirmation emails (SPEC §7 Notifications) after a change succeeded.
 * The change itself is done by then, so a failure here only warns that the email may not come.
 */
export function useNotifyOwner() {
  const toast = useToast();
  return useCallback(
    async (send: () => Promise<unknown>) => {
      try {
        await send();
      } catch (error) {
        toast.warning(screenErrorMessage(error, billingMessages.sendNotificationFailed));
      }
    },
    [toast],
  );
}
