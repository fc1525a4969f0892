import {
  billingMessages,
  type Pricing,
  type SubscriptionChangeResponse,
  typeOfPlan,
} from '@waitlist/contract';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { isApiError, screenErrorMessage } from '../../../lib/api-client.ts';
import { useCurrentUser } from '../../../lib/auth.tsx';
import { useReloadBilling } from '../api/billing-keys.ts';
import { useChangePlan } from '../api/change-plan.ts';
import { useCreateCheckoutSession } from '../api/create-checkout-session.ts';
import { usePaymentMethods } from '../api/get-payment-methods.ts';
import { usePlanChangePreview } from '../api/get-plan-change-preview.ts';
import { sendPlanChangeNotification } from '../api/send-notifications.ts';
import { formatDate, timestampToDate, trialDaysRemaining } from '../utils/billing-time.ts';
import { cardLabel } from '../utils/cards.ts';
import {
  type ChangeTiming,
  type CurrentPaidPlan,
  changeTiming,
  type PlanSelection,
  planWithPeriod,
} from '../utils/plans.ts';
import { formatMoney, monthlyEquivalent } from '../utils/pricing.ts';
import { PlanChangeCharge } from './plan-change-charge.tsx';
import { useNotifyOwner } from './use-notify-owner.ts';
import './plan-change-dialog.css';

type PlanChangeDialogProps = {
  current: CurrentPaidPlan;
  /** What the owner has when no paid plan is live: Free Trial, or the plan that ended. */
  unpaidLabel: string;
  target: PlanSelection;
  pricing: Pricing;
  /** End of the current paid period, when a cheaper plan would start. */
  periodEnd: Date | null;
  onClose: () => void;
};

/**
 * SPEC §4 Confirm Plan Change: first checks for a card (none → Go to Billing), then shows what
 * changes, what it costs and when it is charged; confirm calls the update, then the notification,
 * then reloads the data.
 */
export function PlanChangeDialog({
  current,
  unpaidLabel,
  target,
  pricing,
  periodEnd,
  onClose,
}: PlanChangeDialogProps) {
  const toast = useToast();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const paymentMethods = usePaymentMethods();
  const changePlan = useChangePlan();
  const checkout = useCreateCheckoutSession();
  const reload = useReloadBilling();
  const notifyOwner = useNotifyOwner();
  // The server can still say there is no card (removed in another tab): the dialog then offers Billing.
  const [serverSaysNoCard, setServerSaysNoCard] = useState(false);

  const busy = changePlan.isPending || checkout.isPending;
  const close = busy ? () => {} : onClose;
  const timing = changeTiming(current, target, pricing);
  const fromLabel = current ? planWithPeriod(current.plan, current.billingPeriod) : unpaidLabel;
  const toLabel = planWithPeriod(target.plan, target.billingPeriod);
  const targetType = typeOfPlan[target.plan];
  // Issue 27: the amount charged today, from the server, before Confirm is enabled.
  const preview = usePlanChangePreview(targetType, target.billingPeriod);
  const price = pricing[targetType][target.billingPeriod];
  const defaultCard = paymentMethods.data?.find((method) => method.isDefault) ?? paymentMethods.data?.[0];
  const needsCard = serverSaysNoCard || (paymentMethods.isSuccess && !defaultCard);
  // An upgrade during the free trial is charged at once and ends the trial: the days left are not kept.
  const trialDaysLeft =
    !current && user.subscriptionPlan === 'free_trial'
      ? (trialDaysRemaining(user.trialEndDate, new Date()) ?? 0)
      : 0;

  const goToBilling = () => {
    onClose();
    navigate('/account?tab=billing');
  };

  const payOnCheckout = async () => {
    try {
      const answer = await checkout.mutateAsync({
        planType: targetType,
        billingPeriod: target.billingPeriod,
      });
      window.location.assign(answer.data.url);
    } catch (error) {
      toast.error(screenErrorMessage(error, billingMessages.updateSubscriptionFailed));
    }
  };

  const onConfirm = async () => {
    let answer: SubscriptionChangeResponse;
    try {
      answer = await changePlan.mutateAsync({ planType: targetType, billingPeriod: target.billingPeriod });
    } catch (error) {
      if (isApiError(error) && error.serverMessage === billingMessages.noPaymentMethod) {
        setServerSaysNoCard(true);
        return;
      }
      toast.error(screenErrorMessage(error, billingMessages.updateSubscriptionNeedsCard));
      return;
    }
    if (answer.effective === 'none') {
      toast.info(answer.message);
      onClose();
      return;
    }
    toast.success(successMessage(answer, timing, target));
    onClose();
    await notifyOwner(() => sendPlanChangeNotification({ oldPlan: fromLabel, newPlan: toLabel }));
    await reload();
  };

  const footer = needsCard ? (
    <>
      <Button variant="secondary" disabled={busy} onClick={close}>
        Cancel
      </Button>
      <Button onClick={goToBilling} disabled={busy}>
        Go to Billing
      </Button>
    </>
  ) : (
    <>
      <Button variant="secondary" disabled={busy} onClick={close}>
        Cancel
      </Button>
      <Button busy={changePlan.isPending} disabled={!defaultCard || preview.isPending} onClick={onConfirm}>
        Confirm Plan Change
      </Button>
    </>
  );

  return (
    <Modal title="Confirm Plan Change" onClose={close} footer={footer}>
      <dl className="plan-change">
        <div className="plan-change__row">
          <dt>From</dt>
          <dd>{fromLabel}</dd>
        </div>
        <div className="plan-change__row plan-change__row--to">
          <dt>To</dt>
          <dd>{toLabel}</dd>
        </div>
        <div className="plan-change__row">
          <dt>Price</dt>
          <dd>
            {target.billingPeriod === 'monthly'
              ? `${formatMoney(price.amount, price.currency)} per month`
              : `${formatMoney(price.amount, price.currency)} per year (${formatMoney(monthlyEquivalent(price.amount), price.currency)} a month)`}
          </dd>
        </div>
        {defaultCard && !needsCard ? (
          <div className="plan-change__row">
            <dt>Card</dt>
            <dd>{cardLabel(defaultCard)}</dd>
          </div>
        ) : null}
      </dl>

      {paymentMethods.isPending && !serverSaysNoCard ? (
        <Skeleton label="Checking your payment method" lines={1} />
      ) : paymentMethods.isError && !serverSaysNoCard ? (
        <Alert tone="error">
          {screenErrorMessage(paymentMethods.error, billingMessages.fetchPaymentMethodsFailed)}{' '}
          <Button variant="link" onClick={() => paymentMethods.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : needsCard ? (
        <Alert tone="warning" title="No payment method on file">
          <p>{billingMessages.noPaymentMethod}</p>
          <p className="plan-change__alternative">
            Or{' '}
            <Button variant="link" busy={checkout.isPending} onClick={payOnCheckout}>
              pay on the secure checkout page
            </Button>
            .
          </p>
        </Alert>
      ) : (
        <>
          <PlanChangeCharge
            preview={preview}
            timing={timing}
            price={price}
            periodEnd={periodEnd}
            card={defaultCard}
          />
          {trialDaysLeft > 0 && timing === 'now_full' ? (
            <Alert tone="warning" title="Your free trial ends today">
              You have {trialDaysLeft} day{trialDaysLeft === 1 ? '' : 's'} of free trial left. Upgrading now
              ends the trial: the card is charged today and the remaining trial days are not added to your
              plan. To keep them, upgrade when the trial ends.
            </Alert>
          ) : null}
        </>
      )}
    </Modal>
  );
}

/**
 * SPEC §8: "Your plan has been changed to {plan}." with the charge sentence for upgrades. The server
 * writes it (it knows what was charged); the same sentence is composed here only if it sent none.
 */
function successMessage(
  answer: SubscriptionChangeResponse,
  timing: ChangeTiming,
  target: PlanSelection,
): string {
  if (answer.message.trim()) return answer.message;
  const label = planWithPeriod(target.plan, target.billingPeriod);
  if (answer.effective === 'period_end') {
    const at = timestampToDate(answer.subscription?.pending_change?.effective_at);
    return billingMessages.planChangeScheduled(label, at ? formatDate(at) : 'the next billing date');
  }
  const changed = billingMessages.planChanged(label);
  const charged = answer.invoice?.amount_paid ?? 0;
  if (!answer.invoice || charged <= 0) return changed;
  const amount = formatMoney(charged, answer.invoice.currency);
  return `${changed} ${timing === 'now_full' ? billingMessages.fullCharge(amount) : billingMessages.proratedCharge(amount)}`;
}
