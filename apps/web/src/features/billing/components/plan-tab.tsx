import {
  type BillingPeriod,
  billingMessages,
  DEFAULT_PLAN_CATALOGUE,
  FALLBACK_PRICING,
  planLabels,
  planLimits,
  type Subscription,
} from '@waitlist/contract';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { useCurrentUser } from '../../../lib/auth.tsx';
import { useConfig } from '../../../lib/config.ts';
import { usePricing } from '../api/get-pricing.ts';
import { useSubscription } from '../api/get-subscription.ts';
import { nextBillingDate, timestampToDate } from '../utils/billing-time.ts';
import { type CurrentPaidPlan, type PlanSelection, paidPlanDescriptions } from '../utils/plans.ts';
import { toggleSavingLabel } from '../utils/pricing.ts';
import { BillingPeriodToggle } from './billing-period-toggle.tsx';
import { CancelPlanDialog, CancelPlanSection } from './cancel-plan-section.tsx';
import { CurrentPlanCard } from './current-plan-card.tsx';
import { EnterpriseCard, PlanCard, type PlanCardState } from './plan-card.tsx';
import { PlanChangeDialog } from './plan-change-dialog.tsx';
import { TextsThisMonthCard } from './texts-this-month.tsx';
import { useErrorToast } from './use-error-toast.ts';
import { useResumePlan } from './use-resume-plan.ts';
import './plan-tab.css';

/** A subscription the owner is paying for (or whose payment is being retried); not one that ended. */
function currentPaidPlan(subscription: Subscription | null | undefined): CurrentPaidPlan {
  if (!subscription || subscription.status === 'canceled') return null;
  return { plan: subscription.plan, billingPeriod: subscription.billingPeriod };
}

function cardState(
  selection: PlanSelection,
  current: CurrentPaidPlan,
  subscription: Subscription | null | undefined,
): PlanCardState {
  const pending = subscription?.pending_change;
  if (
    pending &&
    !subscription?.cancel_at_period_end &&
    pending.plan === selection.plan &&
    pending.billingPeriod === selection.billingPeriod
  ) {
    return { kind: 'scheduled', startsAt: timestampToDate(pending.effective_at) };
  }
  if (current?.plan === selection.plan) {
    return current.billingPeriod === selection.billingPeriod
      ? { kind: 'current' }
      : { kind: 'current-other-period', period: current.billingPeriod };
  }
  return { kind: 'available' };
}

/** SPEC §2: the owner's active plan card offers Cancel plan, or Resume plan while it is set to cancel. */
function ManagePlan({ subscription, onCancel }: { subscription: Subscription; onCancel: () => void }) {
  const resume = useResumePlan();
  return subscription.cancel_at_period_end ? (
    <Button variant="secondary" block busy={resume.busy} onClick={resume.run}>
      Resume plan
    </Button>
  ) : (
    <Button variant="ghost" block onClick={onCancel}>
      Cancel plan
    </Button>
  );
}

/** Issue 39: who pays for the segments the alerts send, said where the owner chooses a plan. */
export function whoPaysForTexts(pricePerSegment: number | undefined): string {
  const price = pricePerSegment === undefined ? '' : ` (about $${pricePerSegment} a segment)`;
  return `Texts are on us: your alerts go out from your dedicated number on our account, we pay the carrier for every segment${price}, and your plan price covers them. Your customers pay only their own carrier's usual message rates.`;
}

/** SPEC §2 Plan tab: Current Plan, Change My Plan (toggle, cards, Enterprise), Cancel My Plan. */
export function PlanTab() {
  const user = useCurrentUser();
  const subscriptionQuery = useSubscription();
  const pricingQuery = usePricing();
  useErrorToast(subscriptionQuery, billingMessages.loadSubscriptionFailed);
  useErrorToast(pricingQuery, billingMessages.fetchPricingFailed);

  // SPEC §9: when the pricing call fails, the standard prices stand in.
  const pricing = pricingQuery.isError ? FALLBACK_PRICING : pricingQuery.data;
  // A failed subscription call shows the trial/user view rather than a skeleton forever.
  const subscription = subscriptionQuery.isError ? null : subscriptionQuery.data;
  const current = currentPaidPlan(subscription);
  const [period, setPeriod] = useState<BillingPeriod | null>(null);
  const shownPeriod = period ?? current?.billingPeriod ?? 'monthly';
  const [selection, setSelection] = useState<PlanSelection | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const active = subscription && current && subscription.status === 'active' ? subscription : null;
  const now = new Date();
  // Issue 39: names and limits as the operator configures them (GET /config), the SPEC's until it loads.
  const configured = useConfig().data;
  const catalogue = configured?.plans ?? DEFAULT_PLAN_CATALOGUE;

  return (
    <div className="plan-tab">
      <CurrentPlanCard user={user} subscription={subscription} now={now} />
      <TextsThisMonthCard limits={planLimits(user.subscriptionPlan, catalogue)} />

      <section className="plan-tab__change" aria-labelledby="change-my-plan">
        <header className="plan-tab__change-header">
          <div>
            <h2 id="change-my-plan" className="card__title">
              Change My Plan
            </h2>
            <p className="card__subtitle">
              Upgrades apply now with a prorated charge; downgrades apply at the end of your billing period.
            </p>
          </div>
          <BillingPeriodToggle
            value={shownPeriod}
            onChange={setPeriod}
            savingLabel={pricing ? toggleSavingLabel(pricing) : null}
          />
        </header>
        {pricingQuery.isError ? (
          <Alert tone="info">
            Showing our standard prices; your final price is confirmed before you pay.
          </Alert>
        ) : null}
        <div className="plan-grid">
          {paidPlanDescriptions(catalogue).map((description) => {
            const target = { plan: description.plan, billingPeriod: shownPeriod };
            return (
              <PlanCard
                key={description.type}
                description={description}
                pricing={pricing}
                period={shownPeriod}
                state={cardState(target, current, subscription)}
                onSelect={() => setSelection(target)}
                manage={
                  active && current?.plan === description.plan ? (
                    <ManagePlan subscription={active} onCancel={() => setCancelling(true)} />
                  ) : null
                }
              />
            );
          })}
          <EnterpriseCard businessName={user.businessName} />
        </div>
        <p className="plan-tab__segments" data-testid="who-pays-segments">
          {whoPaysForTexts(configured?.smsSegmentPrice?.amount)}
        </p>
      </section>

      {subscription && current && subscription.status === 'active' ? (
        // Keyed by the cancel flag so that a resume (or a cancellation seen on reload) starts it afresh.
        <CancelPlanSection
          key={`${subscription.id}-${subscription.cancel_at_period_end}`}
          subscription={subscription}
        />
      ) : null}

      {cancelling && active ? (
        <CancelPlanDialog
          subscription={active}
          periodEnd={nextBillingDate(active)}
          onClose={() => setCancelling(false)}
          onCancelled={() => setCancelling(false)}
        />
      ) : null}

      {selection && pricing ? (
        <PlanChangeDialog
          current={current}
          unpaidLabel={planLabels[user.subscriptionPlan]}
          target={selection}
          pricing={pricing}
          periodEnd={subscription ? nextBillingDate(subscription) : null}
          onClose={() => setSelection(null)}
        />
      ) : null}
    </div>
  );
}
