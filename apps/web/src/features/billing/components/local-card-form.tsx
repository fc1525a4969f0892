import { billingMessages } from '@waitlist/contract';
import { useState } from 'react';
import { z } from 'zod';
import { FormattedTextField } from '../../../components/ui/formatted-text-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useConfirmLocalSetup } from '../api/confirm-local-setup.ts';
import { formatCardExpiry, formatCardNumber } from '../utils/cards.ts';
import { CardFormFooter } from './card-form-footer.tsx';
import { useSaveCard, useSetupIntentSecret } from './use-save-card.ts';
import './card-form.css';
import { useZodForm } from '../../../lib/zod-form.ts';

/** The local provider's test cards (issue 4); anything else is refused by the server. */
const testCards = [
  { number: '4242 4242 4242 4242', outcome: 'Visa, succeeds' },
  { number: '5555 5555 5555 4444', outcome: 'Mastercard, succeeds' },
  { number: '4000 0000 0000 0002', outcome: 'Declined' },
  { number: '4000 0000 0000 9995', outcome: 'Insufficient funds' },
  { number: '4000 0000 0000 0341', outcome: 'Saved, but later payments fail' },
];

const digitsOf = (value: string) => value.replace(/\D/g, '');

/** "MM/YY" before the month of `now`. */
export function expiryInThePast(expiry: string, now: Date): boolean {
  const [month, year] = expiry.split('/').map(Number);
  if (!month || year === undefined || Number.isNaN(year)) return false;
  const fullYear = 2000 + year;
  return fullYear < now.getFullYear() || (fullYear === now.getFullYear() && month < now.getMonth() + 1);
}

/** Shape checks only; the server checks Luhn, the expiry date and the CVC length (as Stripe would). */
const localCardForm = z.object({
  number: z
    .string()
    .trim()
    .min(1, 'Card number is required')
    .refine((value) => digitsOf(value).length >= 12, billingMessages.incorrectNumber),
  expiry: z
    .string()
    .trim()
    .min(1, 'Expiry date is required')
    .regex(/^(0[1-9]|1[0-2])\/\d{2}$/, 'Enter the expiry date as MM/YY')
    // A card is good through the last day of its expiry month; 01/20 is refused here, before any call.
    .refine((value) => !expiryInThePast(value, new Date()), billingMessages.expiredCard),
  cvc: z
    .string()
    .trim()
    .min(1, 'CVC is required')
    .regex(/^\d{3,4}$/, billingMessages.incorrectCvc),
});
type LocalCardFormValues = z.infer<typeof localCardForm>;
const emptyCard: LocalCardFormValues = { number: '', expiry: '', cvc: '' };

type CardFormProps = { onAdded: () => void; onCancel?: () => void };

/**
 * Local billing's card form, clearly in test mode: setup intent → the local confirmation (the role
 * of Stripe.js) → attach the card. Only brand, last 4 digits and expiry are kept by the server.
 */
export function LocalCardForm({ onAdded, onCancel }: CardFormProps) {
  const toast = useToast();
  const setupIntentSecret = useSetupIntentSecret();
  const confirmSetup = useConfirmLocalSetup();
  const saveCard = useSaveCard();
  const [cardError, setCardError] = useState<string | null>(null);
  const { control, handleSubmit, reset, setValue, setFocus, formState } = useZodForm(localCardForm, {
    defaultValues: emptyCard,
  });

  const onSubmit = handleSubmit(async ({ number, expiry, cvc }) => {
    setCardError(null);
    const clientSecret = await setupIntentSecret();
    if (clientSecret === null) return;
    const [month, year] = expiry.split('/');
    let paymentMethodId: string;
    try {
      ({ paymentMethodId } = await confirmSetup.mutateAsync({
        clientSecret,
        number: digitsOf(number),
        expMonth: Number(month),
        expYear: 2000 + Number(year),
        cvc,
      }));
    } catch (error) {
      // A decline is the server's own words ("Your card was declined."), shown by the card.
      const message = screenErrorMessage(error, billingMessages.addPaymentMethodFailed);
      setCardError(message);
      toast.error(message);
      return;
    }
    if (await saveCard(paymentMethodId)) {
      setCardError(null);
      reset(emptyCard);
      onAdded();
    }
  });

  return (
    <form className="card-form" onSubmit={onSubmit} noValidate aria-label="Add a card">
      <div className="warning-note card-form__test-mode">
        <p className="card-form__test-title">
          <span className="card-form__test-tag">Test mode</span> No real card is charged.
        </p>
        <p>Use a test card with any future expiry date and any 3-digit CVC:</p>
        <ul className="card-form__test-cards">
          {testCards.map((card) => (
            <li key={card.number}>
              <button
                type="button"
                className="card-form__test-card"
                aria-label={`Use test card ${card.number} (${card.outcome})`}
                onClick={() => {
                  setCardError(null);
                  setValue('number', card.number, { shouldDirty: true });
                  setFocus('expiry');
                }}
              >
                <code>{card.number}</code>
              </button>
              <span>{card.outcome}</span>
            </li>
          ))}
        </ul>
      </div>

      <FormattedTextField
        control={control}
        name="number"
        label="Card number"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="1234 1234 1234 1234"
        format={formatCardNumber}
        onValueChange={() => setCardError(null)}
      />
      <div className="card-form__row">
        <FormattedTextField
          control={control}
          name="expiry"
          label="Expiry (MM/YY)"
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder="MM/YY"
          format={formatCardExpiry}
          onValueChange={() => setCardError(null)}
        />
        <FormattedTextField
          control={control}
          name="cvc"
          label="CVC"
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder="123"
          format={(value) => value.replace(/\D/g, '').slice(0, 4)}
        />
      </div>
      <CardFormFooter cardError={cardError} submitting={formState.isSubmitting} onCancel={onCancel} />
    </form>
  );
}
