import { formatUsPhone, screenMessages, type User, updateDetailsBody } from '@waitlist/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { applyServerFieldErrors } from '../../../lib/form-errors.ts';
import { useZodForm } from '../../../lib/zod-form.ts';
import { useSaveBusinessDetails } from '../api/business-details.ts';

const businessForm = updateDetailsBody.pick({
  businessName: true,
  businessAddress: true,
  city: true,
  state: true,
  zip: true,
});

const valuesFrom = (user: User) => ({
  businessName: user.businessName ?? '',
  businessAddress: user.businessAddress ?? '',
  city: user.city ?? '',
  state: user.state ?? '',
  zip: user.zip ?? '',
});

/** The business's name and address; its phone is the one given at sign-up, shown, not edited (SPEC §5). */
export function BusinessDetailsCard({ user }: { user: User }) {
  const { setUser } = useAuth();
  const toast = useToast();
  const save = useSaveBusinessDetails(user);
  const { handleSubmit, reset, setError, field, formState } = useZodForm(businessForm, {
    defaultValues: valuesFrom(user),
  });
  const phone = formatUsPhone(user.businessPhone || user.businessVerification.businessPhone);

  const onSubmit = handleSubmit(async (details) => {
    try {
      const answer = await save.mutateAsync(details);
      reset(valuesFrom(answer.data));
      setUser(answer.data);
      toast.success('Business details saved');
    } catch (error) {
      applyServerFieldErrors(error, setError, ['businessName', 'businessAddress', 'city', 'state', 'zip']);
      toast.error(screenErrorMessage(error, screenMessages.updateProfileFailed));
    }
  });

  return (
    <Card className="stack">
      <header className="card__header">
        <h2 className="card__title">Business details</h2>
        <p className="card__subtitle">Your business name is how customers know your texts.</p>
      </header>
      <form className="form" onSubmit={onSubmit} noValidate aria-label="Business details">
        <TextField label="Business name" autoComplete="organization" {...field('businessName')} />
        <TextField
          label="Street address"
          labelNote="(optional)"
          autoComplete="street-address"
          {...field('businessAddress')}
        />
        <div className="form__row form__row--2">
          <TextField label="City" labelNote="(optional)" autoComplete="address-level2" {...field('city')} />
          <TextField label="State" labelNote="(optional)" autoComplete="address-level1" {...field('state')} />
        </div>
        <TextField
          label="ZIP"
          labelNote="(optional)"
          autoComplete="postal-code"
          inputMode="numeric"
          {...field('zip')}
        />
        {phone ? (
          <p className="business-phone">
            <span className="field__label">Business phone</span>
            <span className="business-phone__number">{phone}</span>
          </p>
        ) : null}
        <div className="form__actions">
          <Button type="submit" busy={formState.isSubmitting} disabled={!formState.isDirty}>
            Save details
          </Button>
        </div>
      </form>
    </Card>
  );
}
