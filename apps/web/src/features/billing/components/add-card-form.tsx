import { type BillingConfig, billingMessages } from '@waitlist/contract';
import { lazy, Suspense } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { LocalCardForm } from './local-card-form.tsx';

// Stripe.js and its React bindings are fetched only when Stripe is the provider.
const StripeCardForm = lazy(() => import('./stripe-card-form.tsx'));

type AddCardFormProps = {
  /** undefined while GET /config is on its way. */
  billing: BillingConfig | undefined;
  onAdded: () => void;
  onCancel?: () => void;
};

/** Stripe Elements when Stripe is configured with a publishable key, else the local test-card form. */
export function AddCardForm({ billing, onAdded, onCancel }: AddCardFormProps) {
  if (!billing) return <Skeleton label="Loading the card form" lines={2} />;
  if (billing.provider === 'stripe') {
    if (!billing.publishableKey) {
      return (
        <Alert tone="error" title={billingMessages.initializePaymentFormFailedTitle}>
          {billingMessages.initializePaymentFormFailed}
        </Alert>
      );
    }
    return (
      <Suspense fallback={<Skeleton label="Loading the secure card form" lines={2} />}>
        <StripeCardForm publishableKey={billing.publishableKey} onAdded={onAdded} onCancel={onCancel} />
      </Suspense>
    );
  }
  return <LocalCardForm onAdded={onAdded} onCancel={onCancel} />;
}
