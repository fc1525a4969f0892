import { Link } from 'react-router';
import { SubscriptionResult } from '../components/subscription-result.tsx';
import '../../../components/ui/button.css';

/** SPEC §2 /subscription/cancel: the owner left the hosted checkout without paying. */
export function SubscriptionCancelPage() {
  return (
    <SubscriptionResult mark="×" tone="neutral">
      <h1 className="page__title">Payment cancelled</h1>
      <p className="page__lead">No payment was processed. Your plan has not changed.</p>
      <p className="muted">You can choose a plan again whenever you are ready.</p>
      <div className="subscription-result__actions">
        <Link className="button button--primary" to="/account">
          Back to My Account
        </Link>
        <Link className="button button--secondary" to="/account?tab=plan">
          See Plans
        </Link>
      </div>
    </SubscriptionResult>
  );
}
