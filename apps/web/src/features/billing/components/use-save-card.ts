import { billingMessages } from '@waitlist/contract';
import { useCallback } from 'react';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useAddPaymentMethod } from '../api/add-payment-method.ts';
import { useReloadBilling } from '../api/billing-keys.ts';
import { useCreateSetupIntent } from '../api/create-setup-intent.ts';
import { sendBillingUpdateNotification } from '../api/send-notifications.ts';
import { useNotifyOwner } from './use-notify-owner.ts';

/**
 * The first step of both card forms: a setup intent's client secret, or null (and a toast saying the
 * payment form could not start) when the server refuses one.
 */
export function useSetupIntentSecret() {
  const toast = useToast();
  const { mutateAsync } = useCreateSetupIntent();
  return useCallback(async (): Promise<string | null> => {
    try {
      return (await mutateAsync()).clientSecret;
    } catch (error) {
      toast.error(screenErrorMessage(error, billingMessages.initializePaymentFormFailed), {
        title: billingMessages.initializePaymentFormFailedTitle,
      });
      return null;
    }
  }, [mutateAsync, toast]);
}

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
