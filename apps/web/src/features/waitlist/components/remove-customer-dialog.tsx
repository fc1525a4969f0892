import { type Customer, waitlistMessages } from '@waitlist/contract';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useRemoveCustomer } from '../api/remove-customer.ts';

export function RemoveCustomerDialog({ customer, onClose }: { customer: Customer; onClose: () => void }) {
  const toast = useToast();
  const remove = useRemoveCustomer();
  const [error, setError] = useState<string | null>(null);

  const onConfirm = async () => {
    setError(null);
    try {
      await remove.mutateAsync(customer.id);
      toast.success(waitlistMessages.customerRemoved);
      onClose();
    } catch (failure) {
      setError(screenErrorMessage(failure, 'Could not remove the customer.'));
    }
  };

  return (
    <Modal
      title={`Remove ${customer.name}?`}
      tone="danger"
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} autoFocus>
            Keep
          </Button>
          <Button variant="danger" onClick={onConfirm} busy={remove.isPending}>
            Remove
          </Button>
        </>
      }
    >
      {error ? <Alert>{error}</Alert> : null}
      <p>
        {customer.name} leaves the waitlist and gets no more cancellation alerts. Their texts stay in the
        conversation history.
      </p>
    </Modal>
  );
}
