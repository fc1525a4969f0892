import { registerForm, validationMessages } from '@waitlist/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { CheckboxField } from '../../../components/ui/checkbox-field.tsx';
import { EmailField, NameFields, PasswordField } from '../../../components/ui/common-fields.tsx';
import { useAuth } from '../../../lib/auth.tsx';
import { applyServerFieldErrors } from '../../../lib/form-errors.ts';
import { useZodForm } from '../../../lib/zod-form.ts';
import { useRegister } from '../api/register.ts';
import { AuthLayout } from '../components/auth-layout.tsx';
import { SocialButtons, type SocialProvider } from '../components/social-buttons.tsx';
import { TermsDialog } from '../components/terms-dialog.tsx';

export function RegisterPage() {
  const { signIn } = useAuth();
  const registerAccount = useRegister();
  const [formError, setFormError] = useState<string | null>(null);
  const [termsOpen, setTermsOpen] = useState(false);
  const { handleSubmit, setError, clearErrors, getValues, setFocus, watch, field, formState } = useZodForm(
    registerForm,
    {
      defaultValues: {
        firstName: '',
        lastName: '',
        email: '',
        password: '',
        confirmPassword: '',
        acceptTerms: false,
      },
    },
  );

  const onSubmit = handleSubmit(async ({ firstName, lastName, email, password }) => {
    setFormError(null);
    try {
      const answer = await registerAccount.mutateAsync({ firstName, lastName, email, password });
      // The public-only guard sends the new user on to verification.
      signIn(answer.token, answer.user);
    } catch (error) {
      applyServerFieldErrors(error, setError, ['firstName', 'lastName', 'email', 'password']);
      setFormError(error instanceof Error ? error.message : String(error));
    }
  });

  const termsAccepted = watch('acceptTerms');

  const checkTermsFor = (provider: SocialProvider) => {
    if (provider === 'Apple' || getValues('acceptTerms')) return true;
    setError('acceptTerms', {
      type: 'provider',
      message: validationMessages.termsRequiredForProvider(provider),
    });
    setFocus('acceptTerms');
    return false;
  };

  return (
    <AuthLayout
      title="Create your account"
      subtitle="Start your 7-day free trial. No card needed."
      footer={
        <>
          Already have an account? <Link to="/login">Log in</Link>
        </>
      }
    >
      {formError ? <Alert>{formError}</Alert> : null}
      <form className="form" onSubmit={onSubmit} noValidate>
        <NameFields firstName={field('firstName')} lastName={field('lastName')} />
        <EmailField {...field('email')} />
        <PasswordField isNew hint="At least 6 characters." {...field('password')} />
        <PasswordField label="Confirm password" isNew {...field('confirmPassword')} />
        <CheckboxField
          label="I accept the Terms of Service"
          after={
            <Button variant="link" className="terms-link" onClick={() => setTermsOpen(true)}>
              Read the terms
            </Button>
          }
          {...field('acceptTerms', {
            // Ticking the box answers "before continuing with Google" at once, not at the next submit.
            onChange: (event: { target: { checked: boolean } }) => {
              if (event.target.checked) clearErrors('acceptTerms');
            },
          })}
        />
        <Button type="submit" block busy={formState.isSubmitting}>
          Create account
        </Button>
      </form>
      <SocialButtons
        divider="or sign up with"
        beforeContinue={checkTermsFor}
        googleUnlocked={termsAccepted === true}
      />
      {termsOpen ? <TermsDialog onClose={() => setTermsOpen(false)} /> : null}
    </AuthLayout>
  );
}
