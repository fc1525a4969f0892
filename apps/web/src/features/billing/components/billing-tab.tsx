import { type BillingConfig, billingMessages } from '@waitlist/contract';
import { Alert } from '../../../components/ui/alert.tsx';
import { useCurrentUser } from '../../../lib/auth.tsx';
import { useConfig } from '../../../lib/config.ts';
import { useInvoices } from '../api/get-invoices.ts';
import { usePaymentMethods } from '../api/get-payment-methods.ts';
import { useSubscription } from '../api/get-subscription.ts';
import { BillingDetailsCard } from './billing-details-card.tsx';
import { InvoiceHistory } from './invoice-history.tsx';
import { PaymentMethodsCard } from './payment-methods-card.tsx';
import { PhoneNumberSection } from './phone-number-section.tsx';
import { SubscriptionStatusBox } from './subscription-status-box.tsx';
import { TrialBanner } from './trial-banner.tsx';
import { useErrorToast } from './use-error-toast.ts';
import './billing-tab.css';

/** When GET /config cannot be read, assume the embedded default; the server refuses what it cannot do. */
const assumedBilling: BillingConfig = { provider: 'local', publishableKey: null, configured: true };

/** SPEC §2 Billing tab. */
export function BillingTab() {
  const user = useCurrentUser();
  const config = useConfig();
  const subscriptionQuery = useSubscription();
  const paymentMethods = usePaymentMethods();
  const invoices = useInvoices();
  useErrorToast(subscriptionQuery, billingMessages.loadSubscriptionFailed);
  // One toast for the tab's billing data, whichever of the two calls failed (SPEC §8 Loading Error).
  useErrorToast(
    {
      isError: paymentMethods.isError || invoices.isError,
      errorUpdatedAt: Math.max(paymentMethods.errorUpdatedAt, invoices.errorUpdatedAt),
    },
    billingMessages.loadBillingFailed,
    { title: billingMessages.loadBillingFailedTitle },
  );

  // Until the tab's data is in, only what sits above the payment methods is shown, and the tab keeps about
  // its loaded height: the card form (open at once for an owner with no card) would otherwise push the
  // invoices and the subscription box down the page as it appears (issue 16: CLS 0.19 on a slow phone).
  const loading =
    subscriptionQuery.isPending || paymentMethods.isPending || invoices.isPending || config.isPending;
  const billing = config.data?.billing ?? (config.isError ? assumedBilling : undefined);
  const configured = billing?.configured ?? true;
  const subscription = subscriptionQuery.isError ? null : subscriptionQuery.data;
  const hasPaidPlan = Boolean(subscription && subscription.status !== 'canceled');
  const now = new Date();

  return (
    <div className={loading ? 'billing-tab billing-tab--loading' : 'billing-tab'}>
      <TrialBanner user={user} subscription={subscription} now={now} />
      {configured ? null : (
        <Alert tone="warning" title="Payments are not configured">
          {billingMessages.notConfigured} Cards and plans can be changed once the payment settings are
          complete.
        </Alert>
      )}
      <div className="page-columns page-columns--main-aside">
        <div className="stack">
          <PaymentMethodsCard
            paymentMethods={paymentMethods}
            billing={billing}
            billingConfigured={configured}
            hasPaidPlan={hasPaidPlan}
          />
          {loading ? null : (
            <>
              <InvoiceHistory invoices={invoices} />
              <BillingDetailsCard key={user.id} user={user} />
            </>
          )}
        </div>
        {loading ? null : (
          <aside className="stack" aria-label="Subscription and text number">
            <SubscriptionStatusBox
              user={user}
              subscription={subscription}
              now={now}
              billingConfigured={configured}
            />
            <PhoneNumberSection />
          </aside>
        )}
      </div>
    </div>
  );
}
