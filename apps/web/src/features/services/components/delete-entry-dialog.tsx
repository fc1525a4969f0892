import { offerMessages } from '@waitlist/contract';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { type EntryKind, useDeleteEntry } from '../api/delete-entry.ts';

/** Confirms deleting a service or a staff member. */
export function DeleteEntryDialog({
  kind,
  entry,
  onClose,
}: {
  kind: EntryKind;
  entry: { id: string; name: string };
  onClose: () => void;
}) {
  const toast = useToast();
  const remove = useDeleteEntry();
  const [error, setError] = useState<string | null>(null);

  const onConfirm = async () => {
    setError(null);
    try {
      const answer = await remove.mutateAsync({ kind, id: entry.id });
      toast.success(
        answer.message ?? (kind === 'service' ? offerMessages.serviceDeleted : offerMessages.staffDeleted),
      );
      onClose();
    } catch (failure) {
      setError(screenErrorMessage(failure, 'Could not delete it.'));
    }
  };

  return (
    <Modal
      title={`Delete ${entry.name}?`}
      tone="danger"
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} autoFocus>
            Keep
          </Button>
          <Button variant="danger" onClick={onConfirm} busy={remove.isPending}>
            Delete
          </Button>
        </>
      }
    >
      {error ? <Alert>{error}</Alert> : null}
      <p>
        {kind === 'service'
          ? `Customers waiting for ${entry.name} stay on your waitlist.`
          : `Customers who asked for ${entry.name} stay on your waitlist.`}
      </p>
    </Modal>
  );
}
