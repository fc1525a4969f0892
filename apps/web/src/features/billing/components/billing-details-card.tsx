import { type BillingDetailsBody, billingMessages, type User } from '@waitlist/contract';
import { z } from 'zod';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { applyServerFieldErrors } from '../../../lib/form-errors.ts';
import { useZodForm } from '../../../lib/zod-form.ts';
import { sendBillingUpdateNotification } from '../api/send-notifications.ts';
import { useUpdateBillingDetails } from '../api/update-billing-details.ts';
import { useNotifyOwner } from './use-notify-owner.ts';

/** The form as typed; each field becomes part of POST /stripe/update-billing-details. */
const billingDetailsForm = z.object({
  name: z.string().trim().min(1, 'Enter the name to put on invoices').max(200),
  line1: z.string().trim().max(200),
  city: z.string().trim().max(100),
  state: z.string().trim().max(50),
  postalCode: z.string().trim().max(20),
  country: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'A 2-letter country code, like US'),
});
type BillingDetailsForm = z.infer<typeof billingDetailsForm>;

export function toBillingDetailsBody(form: BillingDetailsForm): BillingDetailsBody {
  return {
    name: form.name,
    address: {
      line1: form.line1,
      city: form.city,
      state: form.state,
      postal_code: form.postalCode,
      country: form.country.toUpperCase(),
    },
  };
}

/** No call reads the billing details back, so the form starts from the business profile. */
const initialValues = (user: User): BillingDetailsForm => ({
  name: user.businessName || `${user.firstName} ${user.lastName}`.trim(),
  line1: user.businessAddress,
  city: user.city,
  state: user.state,
  postalCode: user.zip,
  country: 'US',
});

/** SPEC §7 POST /stripe/update-billing-details: the name and address printed on invoices. */
export function BillingDetailsCard({ user }: { user: User }) {
  const toast = useToast();
  const update = useUpdateBillingDetails();
  const notifyOwner = useNotifyOwner();
  const { handleSubmit, reset, setError, field, formState } = useZodForm(billingDetailsForm, {
    defaultValues: initialValues(user),
  });

  const onSubmit = handleSubmit(async (form) => {
    try {
      const answer = await update.mutateAsync(toBillingDetailsBody(form));
      toast.success(answer.message || billingMessages.billingDetailsUpdated);
      reset(form);
      await notifyOwner(sendBillingUpdateNotification);
    } catch (error) {
      applyServerFieldErrors(error, setError, ['name']);
      toast.error(screenErrorMessage(error, billingMessages.updateBillingDetailsFailed));
    }
  });

  return (
    <Card data-testid="billing-details">
      <header className="card__header">
        <h2 className="card__title">Billing Details</h2>
        <p className="card__subtitle">The name and address printed on your invoices.</p>
      </header>
      <form className="form" onSubmit={onSubmit} noValidate aria-label="Billing details">
        <TextField label="Name on invoices" autoComplete="organization" {...field('name')} />
        <TextField label="Address" labelNote="(optional)" autoComplete="address-line1" {...field('line1')} />
        <div className="form__row form__row--2">
          <TextField label="City" labelNote="(optional)" autoComplete="address-level2" {...field('city')} />
          <TextField label="State" labelNote="(optional)" autoComplete="address-level1" {...field('state')} />
        </div>
        <div className="form__row form__row--2">
          <TextField
            label="ZIP code"
            labelNote="(optional)"
            autoComplete="postal-code"
            inputMode="numeric"
            {...field('postalCode')}
          />
          <TextField label="Country" autoComplete="country" maxLength={2} {...field('country')} />
        </div>
        <div className="form__actions">
          <Button
            type="submit"
            variant="secondary"
            busy={formState.isSubmitting}
            disabled={!formState.isDirty}
          >
            Save Billing Details
          </Button>
        </div>
      </form>
    </Card>
  );
}
