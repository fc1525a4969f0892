import { formatUsPhone, screenMessages, type User, ucs2Culprit, updateDetailsBody } from '@waitlist/contract';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { EmailField, NameFields } from '../../../components/ui/common-fields.tsx';
import { UsPhoneField } from '../../../components/ui/formatted-text-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { applyServerFieldErrors } from '../../../lib/form-errors.ts';
import { useZodForm } from '../../../lib/zod-form.ts';
import { useUpdateDetails } from '../api/update-details.ts';
import { PendingEmail } from './pending-email.tsx';

const profileForm = updateDetailsBody
  .pick({ firstName: true, lastName: true, businessName: true, email: true })
  // SPEC §5: the phone is formatted as typed but not sent on save, so a half-typed number never blocks Save.
  .extend({ businessPhone: z.string().optional() });
type ProfileFormInput = z.input<typeof profileForm>;

function valuesFrom(user: User): ProfileFormInput {
  return {
    firstName: user.firstName,
    lastName: user.lastName,
    businessName: user.businessName,
    businessPhone: formatUsPhone(user.businessPhone || user.businessVerification.businessPhone),
    email: user.email,
  };
}

export function ProfileForm({ user }: { user: User }) {
  const { setUser, refreshUser } = useAuth();
  const toast = useToast();
  const updateDetails = useUpdateDetails();
  const { control, handleSubmit, reset, setError, field, formState } = useZodForm(profileForm, {
    defaultValues: valuesFrom(user),
  });

  // Issue 28: a character GSM-7 lacks (an emoji) in the name makes every text 70 characters a segment.
  const nameCulprit = ucs2Culprit(useWatch({ control, name: 'businessName' }) ?? '');

  const onSubmit = handleSubmit(async ({ firstName, lastName, email, businessName }) => {
    try {
      const answer = await updateDetails.mutateAsync({
        firstName,
        lastName,
        email,
        businessName,
        businessAddress: user.businessAddress,
        city: user.city,
        state: user.state,
        zip: user.zip,
      });
      reset(valuesFrom(answer.data));
      // A new email of a verified account waits for its code (shown below); an unverified account's
      // new email is verified on its own page, where the guards take it.
      toast.success(
        answer.data.verified && !answer.data.pendingEmail ? screenMessages.profileUpdated : answer.message,
      );
      setUser(answer.data);
      await refreshUser();
    } catch (error) {
      applyServerFieldErrors(error, setError, ['firstName', 'lastName', 'email', 'businessName']);
      toast.error(screenErrorMessage(error, screenMessages.updateProfileFailed));
    }
  });

  return (
    <Card>
      <header className="card__header">
        <h2 className="card__title">Your information</h2>
        <p className="card__subtitle">
          Changing your email sends a code to the new address; your email changes once you enter it.
        </p>
      </header>
      {user.pendingEmail ? <PendingEmail pendingEmail={user.pendingEmail} /> : null}
      <form className="form" onSubmit={onSubmit} noValidate>
        <NameFields firstName={field('firstName')} lastName={field('lastName')} />
        <div className="form__row form__row--2">
          <TextField
            label="Business name"
            labelNote="(optional)"
            autoComplete="organization"
            hint={nameCulprit ? `‘${nameCulprit}’ makes every text 70 characters a segment.` : undefined}
            {...field('businessName')}
          />
          <UsPhoneField
            control={control}
            name="businessPhone"
            label="Business phone"
            hint="For reference: saving your information does not change it."
          />
        </div>
        <EmailField {...field('email')} />
        <div className="form__actions">
          <Button type="submit" busy={formState.isSubmitting} disabled={!formState.isDirty}>
            Save Information
          </Button>
        </div>
      </form>
    </Card>
  );
}
