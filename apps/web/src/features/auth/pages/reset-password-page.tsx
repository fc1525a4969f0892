import { RESET_REDIRECT_MS, resetPasswordForm, screenMessages } from '@waitlist/contract';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { PasswordField } from '../../../components/ui/common-fields.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { applyServerFieldErrors } from '../../../lib/form-errors.ts';
import { useZodForm } from '../../../lib/zod-form.ts';
import { useResetPassword } from '../api/reset-password.ts';
import { AuthLayout } from '../components/auth-layout.tsx';

export function ResetPasswordPage() {
  const { resettoken } = useParams();
  if (!resettoken?.trim()) return <InvalidResetLink />;
  return <ResetPasswordFormView resetToken={resettoken} />;
}

function InvalidResetLink() {
  const toast = useToast();
  const shown = useRef(false);
  // SPEC §8 lists this message among the toasts; the box below keeps it on the page too.
  useEffect(() => {
    if (shown.current) return;
    shown.current = true;
    toast.error(screenMessages.invalidResetToken);
  }, [toast]);
  return (
    <AuthLayout title="Invalid Reset Link" footer={<Link to="/login">Back to log in</Link>}>
      <Alert tone="warning">{screenMessages.invalidResetToken}</Alert>
      <Link className="button button--primary button--block" to="/forgot-password">
        Request a new reset link
      </Link>
    </AuthLayout>
  );
}

function ResetPasswordFormView({ resetToken }: { resetToken: string }) {
  const toast = useToast();
  const navigate = useNavigate();
  const resetPassword = useResetPassword();
  const [done, setDone] = useState(false);
  const { handleSubmit, setError, field, formState } = useZodForm(resetPasswordForm, {
    defaultValues: { password: '', confirmPassword: '' },
  });

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => navigate('/login', { replace: true }), RESET_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [done, navigate]);

  const onSubmit = handleSubmit(async ({ password }) => {
    try {
      await resetPassword.mutateAsync({ resetToken, password });
      toast.success(screenMessages.passwordResetSuccess);
      setDone(true);
    } catch (error) {
      applyServerFieldErrors(error, setError, ['password']);
      toast.error(screenErrorMessage(error, screenMessages.resetFailed), {
        title: screenMessages.resetFailedTitle,
      });
    }
  });

  if (done) {
    return (
      <AuthLayout title="Password updated">
        <Alert tone="success">{screenMessages.passwordResetSuccess}</Alert>
        <p className="muted">Taking you to the log in page…</p>
        <Link className="button button--primary button--block" to="/login">
          Go to log in
        </Link>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Choose a new password"
      subtitle="Use at least 6 characters."
      footer={<Link to="/login">Back to log in</Link>}
    >
      <form className="form" onSubmit={onSubmit} noValidate>
        <PasswordField label="New password" isNew {...field('password')} />
        <PasswordField label="Confirm new password" isNew {...field('confirmPassword')} />
        <Button type="submit" block busy={formState.isSubmitting}>
          Reset password
        </Button>
      </form>
    </AuthLayout>
  );
}
