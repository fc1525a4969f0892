import { billingMessages, type Subscription, type User } from '@waitlist/contract';
import { Link } from 'react-router';
import { formatDate, timestampToDate, trialDaysRemaining } from '../utils/billing-time.ts';
import './trial-banner.css';
import '../../../components/ui/button.css';

/**
 * SPEC §4 trial display, on top of the Billing tab: the days left of the free trial, or the red
 * Expired banner with Upgrade Now; also the failed-payment notice, which needs a card fixed here.
 */
export function TrialBanner({
  user,
  subscription,
  now,
}: {
  user: User;
  subscription: Subscription | null | undefined;
  now: Date;
}) {
  if (subscription?.status === 'past_due') {
    return (
      <div className="trial-banner trial-banner--expired" role="alert">
        <div className="trial-banner__text">
          <p className="trial-banner__title">Payment failed</p>
          <p>{billingMessages.pastDue}</p>
        </div>
      </div>
    );
  }
  if (subscription || user.subscriptionPlan !== 'free_trial') return null;

  const days = trialDaysRemaining(user.trialEndDate, now);
  if (days === null) return null;
  if (days === 0) {
    return (
      <div className="trial-banner trial-banner--expired" role="alert">
        <div className="trial-banner__text">
          <p className="trial-banner__title">Expired</p>
          <p>{billingMessages.trialExpired}</p>
        </div>
        <Link className="button button--danger" to="/account?tab=plan">
          Upgrade Now
        </Link>
      </div>
    );
  }
  const trialEnd = timestampToDate(user.trialEndDate);
  return (
    <div className="trial-banner" role="status">
      <div className="trial-banner__text">
        <p className="trial-banner__title">
          Free Trial: {days} {days === 1 ? 'day' : 'days'} left
        </p>
        <p>
          Your free trial ends{trialEnd ? ` on ${formatDate(trialEnd)}` : ' soon'}. Add a card and choose a
          plan to keep texting your waitlist after that.
        </p>
      </div>
      <Link className="button button--primary" to="/account?tab=plan">
        Choose a Plan
      </Link>
    </div>
  );
}
