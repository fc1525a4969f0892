import {
  phoneDigits,
  type SocialUserData,
  socialProviderNames,
  validationMessages,
} from '@waitlist/contract';
import { useEffect, useMemo, useState } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { z } from 'zod';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { EmailField } from '../../../components/ui/common-fields.tsx';
import { UsPhoneField } from '../../../components/ui/formatted-text-field.tsx';
import { socialUserDataStorage } from '../../../lib/social-user-data.ts';
import { readSocialUserData } from '../../../lib/social-user-data-read.ts';
import { useZodForm } from '../../../lib/zod-form.ts';
import { AuthLayout } from '../components/auth-layout.tsx';
import { ExistingAccountScreen, existingAccountState } from '../components/existing-account.tsx';
import { SocialIdentity } from '../components/social-identity.tsx';
import { TermsDialog } from '../components/terms-dialog.tsx';
import { useSocialSignIn } from '../components/use-social-sign-in.ts';

/** Only the fields this owner still has to give are checked. */
function finishSchema(askEmail: boolean, askPhone: boolean) {
  return z.object({
    email: askEmail
      ? z
          .string()
          .trim()
          .min(1, validationMessages.emailRequired)
          .pipe(z.email(validationMessages.emailInvalid))
      : z.string(),
    phoneNumber: askPhone
      ? z
          .string()
          .transform((value) => phoneDigits(value))
          .pipe(
            z
              .string()
              .min(1, validationMessages.phoneNumberRequired)
              .length(10, validationMessages.businessPhoneInvalid),
          )
      : z.string(),
  });
}

/**
 * /post-login-onboarding (SPEC §2, §8): where a social sign-up that the server could not finish on
 * the spot continues. The provider's answer waits in sessionStorage `socialUserData`; this screen asks
 * only for what is missing (the phone number Apple sign-ups need, an email the provider did not give)
 * and repeats POST /auth/external with the same proof.
 */
export function PostLoginOnboardingPage() {
  const [stored] = useState(() => readSocialUserData());
  const existing = existingAccountState(useLocation());
  // Facebook's existing account (SPEC §8): no account to create, the way back in instead.
  if (existing) return <ExistingAccountScreen reason={existing.reason} />;
  if (!stored) return <Navigate to="/login" replace />;
  return <FinishSigningUp data={stored} />;
}

function FinishSigningUp({ data }: { data: SocialUserData }) {
  const location = useLocation();
  const signInWith = useSocialSignIn();
  const providerName = socialProviderNames[data.provider];
  const askEmail = !data.email.trim();
  const [askPhone, setAskPhone] = useState(
    () =>
      data.provider === 'apple' || (location.state as { needsPhone?: unknown } | null)?.needsPhone === true,
  );
  const [formError, setFormError] = useState<string | null>(null);
  const [termsOpen, setTermsOpen] = useState(false);
  const schema = useMemo(() => finishSchema(askEmail, askPhone), [askEmail, askPhone]);
  const { control, handleSubmit, setError, setFocus, field, formState } = useZodForm(schema, {
    defaultValues: { email: '', phoneNumber: '' },
  });

  // Straight to the first thing to fill in.
  useEffect(() => {
    if (askEmail) setFocus('email');
    else if (askPhone) setFocus('phoneNumber');
  }, [askEmail, askPhone, setFocus]);

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    const finished: SocialUserData = askEmail ? { ...data, email: values.email } : data;
    const phoneNumber = askPhone ? `+1${values.phoneNumber}` : undefined;
    const outcome = await signInWith(finished, phoneNumber);
    if (outcome.kind === 'signed-in') return; // signed in: onboarding or the guards take over
    if (outcome.kind === 'needs-phone') {
      setAskPhone(true);
      setError('phoneNumber', { type: 'server', message: validationMessages.phoneNumberRequired });
      return;
    }
    let onField = false;
    for (const field of ['email', 'phoneNumber'] as const) {
      const message = outcome.errors?.[field];
      const shown = field === 'email' ? askEmail : askPhone;
      if (message && shown) {
        setError(field, { type: 'server', message });
        onField = true;
      }
    }
    if (!onField) setFormError(outcome.message);
  });

  const needs = [askPhone ? 'your phone number' : null, askEmail ? 'your email address' : null].filter(
    Boolean,
  );

  return (
    <AuthLayout
      title={`Finish signing up with ${providerName}`}
      subtitle={
        needs.length > 0
          ? `${providerName} did not share everything we need. Add ${needs.join(' and ')} to create your account.`
          : 'Check your details and create your account.'
      }
      footer={
        <Link to="/login" replace onClick={() => socialUserDataStorage.clear()}>
          Use a different way to log in
        </Link>
      }
    >
      <SocialIdentity data={data} />
      {formError ? <Alert>{formError}</Alert> : null}
      <form className="form" onSubmit={onSubmit} noValidate>
        {askEmail ? (
          <EmailField hint="We send account and billing messages here." {...field('email')} />
        ) : null}
        {askPhone ? (
          <UsPhoneField
            control={control}
            name="phoneNumber"
            label="Phone number"
            hint="A US number where we can reach you about your account."
          />
        ) : null}
        <Button type="submit" block busy={formState.isSubmitting}>
          Create my account
        </Button>
        <p className="social-identity__terms">
          By continuing you accept the{' '}
          <Button variant="link" className="terms-link" onClick={() => setTermsOpen(true)}>
            Terms of Service
          </Button>
          .
        </p>
      </form>
      {termsOpen ? <TermsDialog onClose={() => setTermsOpen(false)} /> : null}
    </AuthLayout>
  );
}
