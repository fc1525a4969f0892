import { businessVerificationBody, formatUsPhone, screenMessages } from '@waitlist/contract';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { UsPhoneField } from '../../../components/ui/formatted-text-field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useAuth } from '../../../lib/auth.tsx';
import { useSaveTimeZone } from '../../../lib/business-time-zone.ts';
import { applyServerFieldErrors } from '../../../lib/form-errors.ts';
import { socialUserDataStorage } from '../../../lib/social-user-data.ts';
import { TimeZonePicker } from '../../../lib/time-zone-picker.tsx';
import { guessTimeZone } from '../../../lib/time-zones.ts';
import { useZodForm } from '../../../lib/zod-form.ts';
import { useSubmitBusinessDetails } from '../api/submit-business-details.ts';
import { OnboardingSteps } from '../components/onboarding-steps.tsx';

export function BusinessDetailsPage() {
  const { user, refreshUser } = useAuth();
  const navigate = useNavigate();
  const submitBusinessDetails = useSubmitBusinessDetails();
  const saveTimeZone = useSaveTimeZone();
  // Asked here, guessed from the browser: otherwise every business would count its days in New York.
  const [timeZone, setTimeZone] = useState(guessTimeZone);
  const [timeZoneFailed, setTimeZoneFailed] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const [successMessage, setSuccessMessage] = useState<string | null>(null);
  const { control, handleSubmit, setError, field, formState } = useZodForm(businessVerificationBody, {
    defaultValues: {
      businessName: user?.businessName ?? '',
      businessPhone: formatUsPhone(user?.businessPhone),
    },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFailed(null);
    try {
      // The schema has already turned "(555) 123-4567" into "5551234567".
      const answer = await submitBusinessDetails.mutateAsync(values);
      try {
        await saveTimeZone.mutateAsync(timeZone);
      } catch {
        // The details are in; the zone can still be set in Settings, and the success dialog says so.
        setTimeZoneFailed(true);
      }
      // The guards read the business verification status from the user.
      await refreshUser();
      // Onboarding is done: the social profile held for it (SPEC §3, "temporarily") can go.
      socialUserDataStorage.clear();
      setSuccessMessage(answer.message);
    } catch (error) {
      applyServerFieldErrors(error, setError, ['businessName', 'businessPhone']);
      setFailed(screenMessages.businessDetailsFailed);
    }
  });

  const goToAccount = () => navigate('/account', { replace: true });

  return (
    <div className="page onboarding">
      <OnboardingSteps current={2} />
      <Card className="onboarding-card">
        <div>
          <h1 className="page__title">Tell us about your business</h1>
          <p className="page__lead">We use these details to set up your dedicated text number.</p>
        </div>
        {failed ? <Alert>{failed}</Alert> : null}
        <form className="form" onSubmit={onSubmit} noValidate>
          <TextField
            label="Business name"
            autoComplete="organization"
            placeholder="Bella Salon"
            {...field('businessName')}
          />
          <UsPhoneField control={control} name="businessPhone" label="Business phone" />
          <TimeZonePicker
            label="Time zone"
            hint="Openings are typed and alerts counted per day in this zone. We guessed it from this device; type a city to change it."
            value={timeZone}
            onChange={setTimeZone}
          />
          <div className="onboarding-actions">
            <Button type="submit" busy={formState.isSubmitting}>
              Submit
            </Button>
          </div>
        </form>
      </Card>
      {successMessage !== null ? (
        <Modal
          title="You're all set!"
          tone="success"
          onClose={goToAccount}
          footer={
            <Button autoFocus onClick={goToAccount}>
              Go to my account
            </Button>
          }
        >
          <span className="round-icon success-icon" aria-hidden="true">
            ✓
          </span>
          <p>{successMessage}</p>
          <p>We will review your business details shortly. Meanwhile your account is ready to use.</p>
          {timeZoneFailed ? <p>Your time zone could not be saved. You can set it in Settings.</p> : null}
        </Modal>
      ) : null}
    </div>
  );
}
