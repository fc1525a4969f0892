import { forgotPasswordBody, screenMessages, validationMessages } from '@waitlist/contract';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { EmailField } from '../../../components/ui/common-fields.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { applyServerFieldErrors } from '../../../lib/form-errors.ts';
import { useZodForm } from '../../../lib/zod-form.ts';
import { useForgotPassword } from '../api/forgot-password.ts';
import { AuthLayout } from '../components/auth-layout.tsx';
import { emailFrom } from '../components/email-from-state.ts';
import { LocalMailboxNote } from '../components/local-mailbox-note.tsx';

export function ForgotPasswordPage() {
  const location = useLocation();
  const toast = useToast();
  const forgotPassword = useForgotPassword();
  const [formError, setFormError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { handleSubmit, setError, field, formState } = useZodForm(forgotPasswordBody, {
    defaultValues: { email: emailFrom(location.state) },
  });

  const onSubmit = handleSubmit(
    async (values) => {
      setFormError(null);
      try {
        await forgotPassword.mutateAsync(values);
        setSentTo(values.email);
        toast.success(screenMessages.forgotPasswordSent);
      } catch (error) {
        applyServerFieldErrors(error, setError, ['email']);
        setFormError(error instanceof Error ? error.message : String(error));
      }
    },
    (invalid) => {
      if (invalid.email?.message) {
        toast.error(invalid.email.message, { title: validationMessages.validationErrorTitle });
      }
    },
  );

  return (
    <AuthLayout
      title="Forgot your password?"
      subtitle="Enter the email you signed up with and we will send you a link to choose a new one."
      footer={<Link to="/login">Back to log in</Link>}
    >
      {sentTo ? (
        <Alert tone="success" title="Check your email">
          {screenMessages.forgotPasswordSent}
        </Alert>
      ) : null}
      {formError ? <Alert>{formError}</Alert> : null}
      <form className="form" onSubmit={onSubmit} noValidate>
        <EmailField {...field('email')} />
        <Button type="submit" block busy={formState.isSubmitting}>
          Send reset instructions
        </Button>
      </form>
      <LocalMailboxNote reading="the reset link" />
    </AuthLayout>
  );
}
