import {
  screenMessages,
  VERIFICATION_BANNER_MS,
  VERIFY_REDIRECT_MS,
  verifyAccountBody,
} from '@waitlist/contract';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { VerificationCodeField } from '../../../components/ui/formatted-text-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useAuth, useCurrentUser } from '../../../lib/auth.tsx';
import { applyServerFieldErrors } from '../../../lib/form-errors.ts';
import { useZodForm } from '../../../lib/zod-form.ts';
import { useSendVerification } from '../api/send-verification.ts';
import { useVerifyAccount } from '../api/verify-account.ts';
import { AuthLayout } from '../components/auth-layout.tsx';
import { LocalMailboxNote } from '../components/local-mailbox-note.tsx';

export function VerifyAccountPage() {
  const user = useCurrentUser();
  const { setUser, logout } = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const verifyAccount = useVerifyAccount();
  const sendVerification = useSendVerification();
  const [verified, setVerified] = useState(false);
  const [bannerVisible, setBannerVisible] = useState(false);
  const { control, handleSubmit, setError, formState } = useZodForm(verifyAccountBody, {
    defaultValues: { verificationCode: '' },
  });

  useEffect(() => {
    if (!verified) return;
    const redirect = setTimeout(() => navigate('/congratulations', { replace: true }), VERIFY_REDIRECT_MS);
    const banner = setTimeout(() => setBannerVisible(false), VERIFICATION_BANNER_MS);
    return () => {
      clearTimeout(redirect);
      clearTimeout(banner);
    };
  }, [verified, navigate]);

  const onSubmit = handleSubmit(async (values) => {
    try {
      const answer = await verifyAccount.mutateAsync(values);
      setUser(answer.user);
      setVerified(true);
      setBannerVisible(true);
      toast.success(screenMessages.accountVerified, { duration: VERIFICATION_BANNER_MS });
    } catch (error) {
      applyServerFieldErrors(error, setError, ['verificationCode']);
      toast.error(screenErrorMessage(error, screenMessages.verifyFailed));
    }
  });

  const onResend = async () => {
    try {
      await sendVerification.mutateAsync();
      toast.success(screenMessages.newCodeSent);
    } catch (error) {
      toast.error(screenErrorMessage(error, screenMessages.resendFailed));
    }
  };

  return (
    <AuthLayout
      title="Verify your email"
      subtitle={
        <>
          We sent a 6-digit code to <strong className="verify-email">{user.email}</strong>. Enter it below to
          activate your account.
        </>
      }
      footer={
        <>
          Wrong account?{' '}
          <Button variant="link" onClick={() => void logout()}>
            Log out
          </Button>
        </>
      }
    >
      {bannerVisible ? <Alert tone="success">{screenMessages.accountVerified}</Alert> : null}
      <form className="form" onSubmit={onSubmit} noValidate>
        <VerificationCodeField
          control={control}
          name="verificationCode"
          label="Verification code"
          formatPaste
          disabled={verified}
        />
        <Button type="submit" block busy={formState.isSubmitting} disabled={verified}>
          Verify
        </Button>
      </form>
      <div className="verify-resend">
        <span className="muted">Didn't get it?</span>
        <Button variant="secondary" busy={sendVerification.isPending} disabled={verified} onClick={onResend}>
          Resend code
        </Button>
      </div>
      <LocalMailboxNote reading="the code" />
    </AuthLayout>
  );
}
