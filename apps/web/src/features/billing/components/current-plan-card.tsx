import { billingMessages, planLabels, type Subscription, type User } from '@waitlist/contract';
import { Link } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { accountBadges } from '../utils/badges.ts';
import { formatDate, nextBillingDate, timestampToDate, trialDaysRemaining } from '../utils/billing-time.ts';
import { useResumePlan } from './use-resume-plan.ts';
import './current-plan-card.css';

type CurrentPlanCardProps = {
  user: User;
  /** undefined while loading. */
  subscription: Subscription | null | undefined;
  now: Date;
};

export function CurrentPlanCard({ user, subscription, now }: CurrentPlanCardProps) {
  if (subscription === undefined) {
    return (
      <Card className="current-plan">
        <h2 className="card__title">Current Plan</h2>
        <Skeleton label="Loading your plan" lines={3} />
      </Card>
    );
  }
  const plan = subscription?.plan ?? user.subscriptionPlan;
  const period = subscription?.billingPeriod ?? user.subscriptionPeriod;
  const badges = accountBadges(user, subscription, now);
  return (
    <Card className="current-plan">
      <div className="split-header split-header--top">
        <div>
          <h2 className="eyebrow">Current Plan</h2>
          <p className="current-plan__name">{planLabels[plan]}</p>
          {subscription && period ? <p className="muted current-plan__period">Billed {period}</p> : null}
        </div>
        <ul className="badge-list" aria-label="Plan status">
          {badges.map((badge) => (
            <li key={badge.label}>
              <Badge tone={badge.tone}>{badge.label}</Badge>
            </li>
          ))}
        </ul>
      </div>
      {subscription ? (
        <PaidPlanDetails subscription={subscription} />
      ) : (
        <TrialDetails user={user} now={now} />
      )}
    </Card>
  );
}

function TrialDetails({ user, now }: { user: User; now: Date }) {
  if (user.subscriptionPlan !== 'free_trial') {
    // The subscription ended (or was never completed): the account is kept, the features wait for a plan.
    return user.subscriptionStatus === 'canceled' ? (
      <Alert tone="warning">{billingMessages.canceled}</Alert>
    ) : null;
  }
  const days = trialDaysRemaining(user.trialEndDate, now);
  const trialEnd = timestampToDate(user.trialEndDate);
  if (days === 0) return <Alert tone="error">{billingMessages.trialExpired}</Alert>;
  return (
    <dl className="current-plan__facts">
      <div>
        <dt>Trial ends</dt>
        <dd>{trialEnd ? formatDate(trialEnd) : 'Not set'}</dd>
      </div>
      {days !== null ? (
        <div>
          <dt>Days remaining</dt>
          <dd>{days}</dd>
        </div>
      ) : null}
    </dl>
  );
}

function PaidPlanDetails({ subscription }: { subscription: Subscription }) {
  const periodEnd = nextBillingDate(subscription);
  const pending = subscription.pending_change;
  const pendingAt = pending ? timestampToDate(pending.effective_at) : null;
  return (
    <>
      <dl className="current-plan__facts">
        <div>
          <dt>{subscription.cancel_at_period_end ? 'Active until' : 'Next billing date'}</dt>
          <dd>{periodEnd ? formatDate(periodEnd) : 'Not available'}</dd>
        </div>
        <div>
          <dt>Billing</dt>
          <dd>
            <Link to="/account?tab=billing">Cards and invoices</Link>
          </dd>
        </div>
      </dl>
      {subscription.status === 'past_due' ? (
        <Alert tone="error">
          {billingMessages.pastDue} <Link to="/account?tab=billing">Go to Billing</Link>
        </Alert>
      ) : null}
      {pending && !subscription.cancel_at_period_end ? (
        <Alert tone="info">
          Your plan changes to {planLabels[pending.plan]}
          {pending.billingPeriod !== subscription.billingPeriod ? ` (billed ${pending.billingPeriod})` : ''}{' '}
          on {pendingAt ? formatDate(pendingAt) : 'the next billing date'}.
        </Alert>
      ) : null}
      {subscription.cancel_at_period_end ? <CancelNotice periodEnd={periodEnd} /> : null}
    </>
  );
}

/** SPEC §4: while cancel_at_period_end a cancel notice shows with a Resume Subscription button. */
function CancelNotice({ periodEnd }: { periodEnd: Date | null }) {
  const resume = useResumePlan();

  return (
    <div className="split-header warning-note cancel-notice" role="status">
      <p>
        <strong>Your subscription is cancelled.</strong> It stays active until{' '}
        {periodEnd ? formatDate(periodEnd) : 'the end of your billing period'}, then ends. Nothing more is
        charged.
      </p>
      <Button variant="primary" busy={resume.busy} onClick={resume.run}>
        Resume Subscription
      </Button>
    </div>
  );
}
