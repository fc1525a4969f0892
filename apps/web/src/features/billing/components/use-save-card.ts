import { billingMessages } from '@waitlist/contract';
import { useCallback } from 'react';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useAddPaymentMethod } from '../api/add-payment-method.ts';
import { useReloadBilling } from '../api/billing-keys.ts';
import { sendBillingUpdateNotification } from '../api/send-notifications.ts';
import { useNotifyOwner } from './use-notify-owner.ts';

/**
 * The last step of both card forms (Stripe Elements and the local test form): attach the confirmed
 * card, say so, email the owner (billing-update) and reload. Returns whether the card was saved.
 */
export function useSaveCard() {
  const toast = useToast();
  const addPaymentMethod = useAddPaymentMethod();
  const notifyOwner = useNotifyOwner();
  const reload = useReloadBilling();
  const { mutateAsync } = addPaymentMethod;

  return useCallback(
    async (paymentMethodId: string): Promise<boolean> => {
      try {
        await mutateAsync(paymentMethodId);
      } catch (error) {
        toast.error(screenErrorMessage(error, billingMessages.addPaymentMethodFailed));
        return false;
      }
      toast.success(billingMessages.paymentMethodAdded);
      await notifyOwner(sendBillingUpdateNotification);
      // A new card can settle a past-due subscription; the plan fields may have changed too.
      await reload();
      return true;
    },
    [mutateAsync, toast, notifyOwner, reload],
  );
}
