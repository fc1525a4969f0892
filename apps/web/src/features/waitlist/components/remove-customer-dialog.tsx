import { type Customer, waitlistMessages } from '@waitlist/contract';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { useRemoveCustomer } from '../api/remove-customer.ts';

export function RemoveCustomerDialog({ customer, onClose }: { customer: Customer; onClose: () => void }) {
  const toast = useToast();
  const remove = useRemoveCustomer();
  return (
    <ConfirmDialog
      title={`Remove ${customer.name}?`}
      action="Remove"
      busy={remove.isPending}
      failure="Could not remove the customer."
      onConfirm={async () => {
        await remove.mutateAsync(customer.id);
        toast.success(waitlistMessages.customerRemoved);
        onClose();
      }}
      onClose={onClose}
    >
      <p>
        {customer.name} leaves the waitlist and gets no more cancellation alerts. Their texts stay in the
        conversation history.
      </p>
    </ConfirmDialog>
  );
}
