import { authMessages, confirmEmailBody, screenMessages } from '@waitlist/contract';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { VerificationCodeField } from '../../../components/ui/formatted-text-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { applyServerFieldErrors } from '../../../lib/form-errors.ts';
import { useZodForm } from '../../../lib/zod-form.ts';
import { useCancelEmailChange, useConfirmEmail, useResendEmailCode } from '../api/email-change.ts';

/**
 * A new email address waiting for its code (issue 12): the account keeps its address until the code sent to
 * the new one is entered here. Shown inside "Your information" while `user.pendingEmail` is set.
 */
export function PendingEmail({ pendingEmail }: { pendingEmail: string }) {
  const { setUser } = useAuth();
  const toast = useToast();
  const confirm = useConfirmEmail();
  const cancel = useCancelEmailChange();
  const resend = useResendEmailCode();
  const { control, handleSubmit, setError, formState } = useZodForm(confirmEmailBody, {
    defaultValues: { verificationCode: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const answer = await confirm.mutateAsync(values);
      toast.success(answer.message || authMessages.emailChanged);
      setUser(answer.user);
    } catch (error) {
      applyServerFieldErrors(error, setError, ['verificationCode']);
      toast.error(screenErrorMessage(error, screenMessages.confirmEmailFailed));
    }
  });

  const onCancel = async () => {
    try {
      const answer = await cancel.mutateAsync();
      toast.success(answer.message || authMessages.emailChangeCancelled);
      setUser(answer.user);
    } catch (error) {
      toast.error(screenErrorMessage(error, screenMessages.cancelEmailChangeFailed));
    }
  };

  const onResend = async () => {
    try {
      await resend.mutateAsync();
      toast.success(screenMessages.emailCodeResent);
    } catch (error) {
      toast.error(screenErrorMessage(error, screenMessages.resendFailed));
    }
  };

  const busy = formState.isSubmitting || cancel.isPending;
  return (
    <section className="pending-email" aria-label="New email address">
      <Alert tone="info" title="Confirm your new email">
        {authMessages.emailChangePending(pendingEmail)}
      </Alert>
      <form className="pending-email__form" onSubmit={onSubmit} noValidate>
        <VerificationCodeField
          control={control}
          name="verificationCode"
          label="Code sent to your new email"
          disabled={busy}
        />
        <div className="pending-email__actions">
          <Button type="submit" busy={formState.isSubmitting} disabled={cancel.isPending}>
            Confirm new email
          </Button>
          <Button
            type="button"
            variant="secondary"
            busy={resend.isPending}
            disabled={busy}
            onClick={() => void onResend()}
          >
            Send a new code
          </Button>
          <Button
            type="button"
            variant="ghost"
            busy={cancel.isPending}
            disabled={formState.isSubmitting}
            onClick={() => void onCancel()}
          >
            Keep my current email
          </Button>
        </div>
      </form>
    </section>
  );
}
