import { useQueryClient } from '@tanstack/react-query';
import { billingMessages, planLabels } from '@waitlist/contract';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useAuth } from '../../../lib/auth.tsx';
import { billingKeys } from '../api/billing-keys.ts';
import { useSubscription } from '../api/get-subscription.ts';
import { SubscriptionResult } from '../components/subscription-result.tsx';
import { useErrorToast } from '../components/use-error-toast.ts';
import { subscriptionStatusBadge } from '../utils/badges.ts';
import { formatDate, nextBillingDate } from '../utils/billing-time.ts';
import '../../../components/ui/button.css';

/** While the provider's confirmation has not reached us yet, ask again this often, this many times. */
const CONFIRMATION_POLL_MS = 2000;
const CONFIRMATION_POLLS = 15;

/** SPEC §2 /subscription/success: back from the hosted checkout, with ?session_id. */
export function SubscriptionSuccessPage() {
  const [searchParams] = useSearchParams();
  const sessionId = searchParams.get('session_id')?.trim();
  if (!sessionId) return <SessionError />;
  return <CheckoutResult />;
}

function SessionError() {
  return (
    <SubscriptionResult mark="!" tone="error">
      <h1 className="page__title">Something went wrong</h1>
      <Alert tone="error" title={billingMessages.sessionErrorTitle}>
        {billingMessages.invalidSessionId}
      </Alert>
      <p className="muted">No changes were made from this page. Your account shows your current plan.</p>
      <Link className="button button--primary" to="/account">
        Go to My Account
      </Link>
    </SubscriptionResult>
  );
}

function CheckoutResult() {
  const queryClient = useQueryClient();
  const { refreshUser } = useAuth();
  const subscriptionQuery = useSubscription({
    refetchInterval: (query) =>
      query.state.data === null && query.state.dataUpdateCount < CONFIRMATION_POLLS
        ? CONFIRMATION_POLL_MS
        : false,
  });
  useErrorToast(subscriptionQuery, billingMessages.loadSubscriptionFailed);
  const subscription = subscriptionQuery.data;

  // The plan changed outside this app: the cached user and billing data are out of date.
  useEffect(() => {
    void refreshUser();
    void queryClient.invalidateQueries({ queryKey: billingKeys.invoices });
    void queryClient.invalidateQueries({ queryKey: billingKeys.paymentMethods });
  }, [queryClient, refreshUser]);

  const periodEnd = subscription ? nextBillingDate(subscription) : null;
  const status = subscription
    ? subscriptionStatusBadge(subscription.status, subscription.cancel_at_period_end)
    : null;

  return (
    <SubscriptionResult mark="✓">
      <h1 className="page__title">Payment successful</h1>
      <p className="page__lead">Thank you! Your subscription is set up.</p>
      {subscriptionQuery.isPending ? (
        <Skeleton label="Loading your subscription" lines={2} />
      ) : subscriptionQuery.isError ? (
        <Alert tone="error">{billingMessages.loadSubscriptionFailed}</Alert>
      ) : subscription && status ? (
        <dl className="subscription-result__facts">
          <div>
            <dt>Plan</dt>
            <dd>
              {planLabels[subscription.plan]} (billed {subscription.billingPeriod})
            </dd>
          </div>
          <div>
            <dt>Status</dt>
            <dd>
              <Badge tone={status.tone}>{status.label}</Badge>
            </dd>
          </div>
          <div>
            <dt>Current period ends</dt>
            <dd>{periodEnd ? formatDate(periodEnd) : 'Not available'}</dd>
          </div>
        </dl>
      ) : (
        <Alert tone="info">
          We are still confirming your payment with the payment provider. Your plan appears in your account as
          soon as it is confirmed.
        </Alert>
      )}
      <Link className="button button--primary" to="/account">
        Go to My Account
      </Link>
    </SubscriptionResult>
  );
}
