import {
  authMessages,
  type ChangePasswordForm,
  changePasswordForm,
  screenMessages,
} from '@waitlist/contract';
import { useWatch } from 'react-hook-form';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { PasswordField } from '../../../components/ui/common-fields.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { isApiError, screenErrorMessage } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { applyServerFieldErrors } from '../../../lib/form-errors.ts';
import { useZodForm } from '../../../lib/zod-form.ts';
import { useUpdatePassword } from '../api/update-password.ts';

const emptyPasswords: ChangePasswordForm = { currentPassword: '', newPassword: '', confirmPassword: '' };

export function ChangePasswordSection() {
  const { replaceToken } = useAuth();
  const toast = useToast();
  const updatePassword = useUpdatePassword();
  const { control, handleSubmit, reset, setError, field, formState } = useZodForm(changePasswordForm, {
    defaultValues: emptyPasswords,
  });
  const [currentPassword, newPassword, confirmPassword] = useWatch({
    control,
    name: ['currentPassword', 'newPassword', 'confirmPassword'],
  });
  const allFilled = Boolean(currentPassword && newPassword && confirmPassword);

  const onSubmit = handleSubmit(async ({ currentPassword, newPassword }) => {
    try {
      const answer = await updatePassword.mutateAsync({ currentPassword, newPassword });
      // Other sessions were revoked; this one carries on, with a fresh token only if one came back.
      if (answer.token) replaceToken(answer.token);
      reset(emptyPasswords);
      toast.success(screenMessages.passwordUpdated);
    } catch (error) {
      if (isApiError(error) && error.status === 401) {
        setError('currentPassword', { type: 'server', message: authMessages.currentPasswordIncorrect });
        toast.error(authMessages.currentPasswordIncorrect);
        return;
      }
      applyServerFieldErrors(error, setError, ['currentPassword', 'newPassword']);
      toast.error(screenErrorMessage(error, screenMessages.updatePasswordFailed));
    }
  });

  return (
    <Card>
      <header className="card__header">
        <h2 className="card__title">Change Password</h2>
        <p className="card__subtitle">You stay logged in here; other devices are logged out.</p>
      </header>
      <form className="form" onSubmit={onSubmit} noValidate>
        <PasswordField label="Current password" {...field('currentPassword')} />
        <div className="form__row form__row--2">
          <PasswordField label="New password" isNew {...field('newPassword')} />
          <PasswordField label="Confirm new password" isNew {...field('confirmPassword')} />
        </div>
        <div className="form__actions">
          <Button type="submit" busy={formState.isSubmitting} disabled={!allFilled}>
            Update Password
          </Button>
        </div>
      </form>
    </Card>
  );
}
