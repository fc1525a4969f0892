import { billingMessages, planLabels, type Subscription } from '@waitlist/contract';
import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useReloadBilling } from '../api/billing-keys.ts';
import { useCancelSubscription } from '../api/cancel-subscription.ts';
import { sendPlanCancelNotification } from '../api/send-notifications.ts';
import { formatDate, nextBillingDate } from '../utils/billing-time.ts';
import { useNotifyOwner } from './use-notify-owner.ts';

/**
 * SPEC §4: cancel only an active subscription not already set to cancel; it stays active until the
 * period ends, and the button then reads Cancellation Confirmed.
 */
export function CancelPlanSection({ subscription }: { subscription: Subscription }) {
  const [open, setOpen] = useState(false);
  const [confirmed, setConfirmed] = useState(false);
  const cancelling = confirmed || subscription.cancel_at_period_end;
  const periodEnd = nextBillingDate(subscription);

  return (
    <Card>
      <header className="card__header">
        <h2 className="card__title">Cancel My Plan</h2>
        <p className="card__subtitle">
          {cancelling
            ? `Your plan stays active until ${periodEnd ? formatDate(periodEnd) : 'the end of the period'}. You can resume it until then.`
            : 'If you cancel, your plan stays active until the end of the billing period you have paid for.'}
        </p>
      </header>
      <Button variant="secondary" disabled={cancelling} onClick={() => setOpen(true)}>
        {cancelling ? 'Cancellation Confirmed' : 'Cancel My Plan'}
      </Button>
      {open ? (
        <CancelPlanDialog
          subscription={subscription}
          periodEnd={periodEnd}
          onClose={() => setOpen(false)}
          onCancelled={() => {
            setConfirmed(true);
            setOpen(false);
          }}
        />
      ) : null}
    </Card>
  );
}

/** Also opened from the current plan's card (SPEC §2: the plan cards offer cancel and resume). */
export function CancelPlanDialog({
  subscription,
  periodEnd,
  onClose,
  onCancelled,
}: {
  subscription: Subscription;
  periodEnd: Date | null;
  onClose: () => void;
  onCancelled: () => void;
}) {
  const toast = useToast();
  const cancel = useCancelSubscription();
  const reload = useReloadBilling();
  const notifyOwner = useNotifyOwner();

  const onConfirm = async () => {
    try {
      await cancel.mutateAsync();
    } catch (error) {
      toast.error(screenErrorMessage(error, billingMessages.cancelSubscriptionFailed));
      return;
    }
    toast.success(billingMessages.subscriptionCancelled);
    onCancelled();
    await notifyOwner(sendPlanCancelNotification);
    await reload();
  };

  return (
    <Modal
      title="Cancel My Plan"
      tone="danger"
      onClose={cancel.isPending ? () => {} : onClose}
      footer={
        <>
          <Button variant="secondary" autoFocus disabled={cancel.isPending} onClick={onClose}>
            Keep My Plan
          </Button>
          <Button variant="danger" busy={cancel.isPending} onClick={onConfirm}>
            Confirm Cancellation
          </Button>
        </>
      }
    >
      <p>
        Your {planLabels[subscription.plan]} stays active until{' '}
        <strong>{periodEnd ? formatDate(periodEnd) : 'the end of your billing period'}</strong>. After that,
        texting your waitlist is paused until you choose a plan again. Your customers and history are kept.
      </p>
      <p>You can resume your subscription any time before it ends.</p>
    </Modal>
  );
}
