import type { LoginBody } from '@waitlist/contract';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { EmailField, PasswordField } from '../../../components/ui/common-fields.tsx';
import { useAuth } from '../../../lib/auth.tsx';
import { applyServerFieldErrors } from '../../../lib/form-errors.ts';
import { bindFields } from '../../../lib/form-fields.ts';
import { lazyResolver } from '../../../lib/lazy-resolver.ts';
import { useLogin } from '../api/login.ts';
import { AuthLayout } from '../components/auth-layout.tsx';
import { emailFrom } from '../components/email-from-state.ts';
import { SocialButtons } from '../components/social-buttons.tsx';

const resolver = lazyResolver<LoginBody>(() => import('./login-resolver.ts').then((m) => m.loginResolver));

export function LoginPage() {
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((callback: () => void) => setTimeout(callback, 200));
    idle(() => resolver.preload());
  }, []);
  const location = useLocation();
  const { signIn } = useAuth();
  const login = useLogin();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<LoginBody>({ resolver, defaultValues: { email: emailFrom(location.state), password: '' } });
  const field = bindFields(register, errors);

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const answer = await login.mutateAsync(values);
      // The public-only guard sends the now logged-in user on.
      signIn(answer.token, answer.user);
    } catch (error) {
      applyServerFieldErrors(error, setError, ['email', 'password']);
      setFormError(error instanceof Error ? error.message : String(error));
    }
  });

  return (
    <AuthLayout
      title="Welcome back"
      subtitle="Log in to manage your waitlist and text your customers."
      footer={
        <>
          New to Waitlist &amp; Text? <Link to="/register">Create an account</Link>
        </>
      }
    >
      {formError ? <Alert>{formError}</Alert> : null}
      <form className="form" onSubmit={onSubmit} noValidate>
        <EmailField {...field('email')} />
        <PasswordField {...field('password')} />
        <div className="auth-links">
          <Link to="/forgot-password">Forgot password?</Link>
        </div>
        <Button type="submit" block busy={isSubmitting}>
          Log in
        </Button>
      </form>
      <SocialButtons divider="or" />
    </AuthLayout>
  );
}
