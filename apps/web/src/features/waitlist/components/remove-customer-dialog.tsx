import { type Customer, waitlistMessages } from '@waitlist/contract';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { useRemoveCustomer } from '../api/remove-customer.ts';
import { UNDO_TOAST_MS, useRestoreCustomerAction } from './use-restore-customer.ts';

export function RemoveCustomerDialog({ customer, onClose }: { customer: Customer; onClose: () => void }) {
  const toast = useToast();
  const remove = useRemoveCustomer();
  const restore = useRestoreCustomerAction();
  return (
    <ConfirmDialog
      title={`Remove ${customer.name}?`}
      action="Remove"
      busy={remove.isPending}
      failure="Could not remove the customer."
      onConfirm={async () => {
        await remove.mutateAsync(customer.id);
        // "Marcus removed", with an Undo that puts them back at their place (issue 27).
        toast.success(waitlistMessages.removedToast(customer.name), {
          duration: UNDO_TOAST_MS,
          action: {
            label: 'Undo',
            ariaLabel: `Undo removing ${customer.name}`,
            onClick: () => void restore(customer),
          },
        });
        onClose();
      }}
      onClose={onClose}
    >
      <p>
        {customer.name} leaves the waitlist and gets no more cancellation alerts. Their texts stay in the
        conversation history. You can undo this.
      </p>
    </ConfirmDialog>
  );
}
