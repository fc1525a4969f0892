import { DELETE_CONFIRMATION_WORD, deleteAccountForm, screenMessages } from '@waitlist/contract';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { useZodForm } from '../../../lib/zod-form.ts';
import { useDeleteAccount } from '../api/delete-account.ts';

export function DeleteAccountSection() {
  const [open, setOpen] = useState(false);
  return (
    <Card className="danger-zone">
      <header className="card__header">
        <h2 className="card__title">Delete My Account</h2>
        <p className="card__subtitle">
          Permanently removes your account, waitlist and message history. This cannot be undone.
        </p>
      </header>
      <Button variant="danger" onClick={() => setOpen(true)}>
        Delete My Account
      </Button>
      {open ? <DeleteAccountDialog onClose={() => setOpen(false)} /> : null}
    </Card>
  );
}

function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const { logout } = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const deleteAccount = useDeleteAccount();
  const { handleSubmit, field, formState } = useZodForm(deleteAccountForm, {
    defaultValues: { confirmation: '' },
  });

  const onSubmit = handleSubmit(async () => {
    try {
      const answer = await deleteAccount.mutateAsync();
      toast.success(answer.message);
      await logout();
      navigate('/login', { replace: true });
    } catch (error) {
      toast.error(screenErrorMessage(error, screenMessages.deleteAccountFailed));
    }
  });

  return (
    <Modal title="Delete Account" tone="danger" onClose={onClose}>
      <p>
        This permanently deletes your account and everything in it. To confirm, type{' '}
        <strong className="confirm-word">{DELETE_CONFIRMATION_WORD}</strong> below.
      </p>
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField
          label={`Type ${DELETE_CONFIRMATION_WORD} to confirm`}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          {...field('confirmation')}
        />
        <div className="form__actions form__actions--end">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" busy={formState.isSubmitting}>
            Delete Account
          </Button>
        </div>
      </form>
    </Modal>
  );
}
