import { billingMessages } from '@waitlist/contract';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useReloadBilling } from '../api/billing-keys.ts';
import { useResumeSubscription } from '../api/resume-subscription.ts';

/** Resume a plan set to cancel (SPEC §4): the toast, then the billing data again; the cancel notice and the plan card share it. */
export function useResumePlan() {
  const toast = useToast();
  const resume = useResumeSubscription();
  const reload = useReloadBilling();
  const run = async () => {
    try {
      await resume.mutateAsync();
      toast.success(billingMessages.subscriptionResumed);
      await reload();
    } catch (error) {
      toast.error(screenErrorMessage(error, billingMessages.resumeSubscriptionFailed));
    }
  };
  return { run, busy: resume.isPending };
}
