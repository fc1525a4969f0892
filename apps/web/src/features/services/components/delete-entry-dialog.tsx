import { offerMessages } from '@waitlist/contract';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
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
  return (
    <ConfirmDialog
      title={`Delete ${entry.name}?`}
      action="Delete"
      busy={remove.isPending}
      failure="Could not delete it."
      onConfirm={async () => {
        const answer = await remove.mutateAsync({ kind, id: entry.id });
        toast.success(
          answer.message ?? (kind === 'service' ? offerMessages.serviceDeleted : offerMessages.staffDeleted),
        );
        onClose();
      }}
      onClose={onClose}
    >
      <p>
        {kind === 'service'
          ? `Customers waiting for ${entry.name} stay on your waitlist.`
          : `Customers who asked for ${entry.name} stay on your waitlist.`}
      </p>
    </ConfirmDialog>
  );
}
