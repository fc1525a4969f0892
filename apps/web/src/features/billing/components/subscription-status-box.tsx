import { billingMessages, planLabels, type Subscription, type User } from '@waitlist/contract';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useCreatePortalSession } from '../api/create-portal-session.ts';
import { accountBadges } from '../utils/badges.ts';
import { formatDate, nextBillingDate, timestampToDate } from '../utils/billing-time.ts';
import './subscription-status-box.css';

type SubscriptionStatusBoxProps = {
  user: User;
  subscription: Subscription | null | undefined;
  now: Date;
  /** False when payments are not set up: the portal cannot open. */
  billingConfigured: boolean;
};

/** SPEC §2 Billing tab: the subscription status box with the upgrade and billing-portal buttons. */
export function SubscriptionStatusBox({
  user,
  subscription,
  now,
  billingConfigured,
}: SubscriptionStatusBoxProps) {
  const toast = useToast();
  const portal = useCreatePortalSession();

  const openPortal = async () => {
    try {
      const answer = await portal.mutateAsync();
      window.location.assign(answer.data.url);
    } catch (error) {
      toast.error(screenErrorMessage(error, billingMessages.createPortalSessionFailed));
    }
  };

  if (subscription === undefined) {
    return (
      <Card className="status-box">
        <h2 className="card__title">Subscription</h2>
        <Skeleton label="Loading your subscription" lines={2} />
      </Card>
    );
  }

  const plan = subscription?.plan ?? user.subscriptionPlan;
  const renews = subscription ? nextBillingDate(subscription) : null;
  const trialEnd = !subscription && plan === 'free_trial' ? timestampToDate(user.trialEndDate) : null;
  return (
    <Card className="status-box">
      <h2 className="card__title">Subscription</h2>
      <p className="status-box__plan">
        {planLabels[plan]}
        {subscription ? (
          <span className="status-box__period"> · billed {subscription.billingPeriod}</span>
        ) : null}
      </p>
      <ul className="badge-list" aria-label="Subscription status">
        {accountBadges(user, subscription, now).map((badge) => (
          <li key={badge.label}>
            <Badge tone={badge.tone}>{badge.label}</Badge>
          </li>
        ))}
      </ul>
      {renews ? (
        <p className="status-box__date">
          {subscription?.cancel_at_period_end ? 'Ends' : 'Renews'} on {formatDate(renews)}
        </p>
      ) : trialEnd ? (
        <p className="status-box__date">
          Trial {trialEnd.getTime() > now.getTime() ? 'ends' : 'ended'} on {formatDate(trialEnd)}
        </p>
      ) : null}
      <div className="status-box__actions">
        <Link className="button button--primary button--block" to="/account?tab=plan">
          {plan === 'growth' ? 'Change Plan' : 'Upgrade Plan'}
        </Link>
        <Button
          variant="secondary"
          block
          busy={portal.isPending}
          disabled={!billingConfigured}
          onClick={openPortal}
        >
          Manage Billing
        </Button>
      </div>
      <p className="status-box__hint">
        Manage Billing opens the payment provider's billing portal, where you can also download receipts.
      </p>
    </Card>
  );
}
