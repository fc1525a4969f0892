import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { billingMessages } from '@waitlist/contract';
import { type FormEvent, useId, useState } from 'react';
import { useToast } from '../../../components/ui/toast.tsx';
import { CardFormFooter } from './card-form-footer.tsx';
import { useSaveCard, useSetupIntentSecret } from './use-save-card.ts';
import './card-form.css';

/** Stripe.js loads once per key, and only when this form is first shown (it is lazily imported). */
const stripeByKey = new Map<string, Promise<Stripe | null>>();
function stripeFor(publishableKey: string) {
  let stripe = stripeByKey.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey).catch(() => null);
    stripeByKey.set(publishableKey, stripe);
  }
  return stripe;
}

type StripeCardFormProps = { publishableKey: string; onAdded: () => void; onCancel?: () => void };

/** Stripe Elements card form: the card details go to Stripe only; we get a PaymentMethod id back. */
export default function StripeCardForm({ publishableKey, ...props }: StripeCardFormProps) {
  return (
    <Elements stripe={stripeFor(publishableKey)}>
      <StripeCardFields {...props} />
    </Elements>
  );
}

// Stripe renders the card field in its own frame, so it takes literal colours, not our CSS tokens.
const cardElementOptions = {
  hidePostalCode: false,
  style: {
    base: {
      fontSize: '16px',
      color: '#172033',
      fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
      '::placeholder': { color: '#6b7489' },
    },
    invalid: { color: '#b91c1c' },
  },
};

function StripeCardFields({ onAdded, onCancel }: Omit<StripeCardFormProps, 'publishableKey'>) {
  const toast = useToast();
  const stripe = useStripe();
  const elements = useElements();
  const setupIntentSecret = useSetupIntentSecret();
  const saveCard = useSaveCard();
  const hintId = useId();
  const [submitting, setSubmitting] = useState(false);
  const [cardError, setCardError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements || submitting) return;
    const card = elements.getElement(CardElement);
    if (!card) {
      toast.error(billingMessages.cardElementNotFound);
      return;
    }
    setSubmitting(true);
    setCardError(null);
    try {
      const clientSecret = await setupIntentSecret();
      if (clientSecret === null) return;
      const result = await stripe.confirmCardSetup(clientSecret, { payment_method: { card } });
      if (result.error) {
        const message = result.error.message ?? billingMessages.addPaymentMethodFailed;
        setCardError(message);
        toast.error(message);
        return;
      }
      const paymentMethod = result.setupIntent.payment_method;
      const paymentMethodId = typeof paymentMethod === 'string' ? paymentMethod : paymentMethod?.id;
      if (!paymentMethodId) {
        toast.error(billingMessages.addPaymentMethodFailed);
        return;
      }
      if (await saveCard(paymentMethodId)) {
        card.clear();
        onAdded();
      }
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form className="card-form" onSubmit={onSubmit} noValidate aria-label="Add a card">
      <fieldset className="field card-form__stripe-field" aria-describedby={hintId}>
        <legend className="field__label">Card details</legend>
        <div className="card-form__stripe-element">
          <CardElement options={cardElementOptions} onChange={() => setCardError(null)} />
        </div>
        <p id={hintId} className="field__hint">
          Your card details go straight to Stripe; we only keep the brand, last 4 digits and expiry.
        </p>
      </fieldset>
      <CardFormFooter
        cardError={cardError}
        submitting={submitting}
        ready={Boolean(stripe)}
        onCancel={onCancel}
      />
    </form>
  );
}
