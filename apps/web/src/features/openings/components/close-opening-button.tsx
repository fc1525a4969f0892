import type { Opening } from '@waitlist/contract';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useCloseOpening } from '../api/close-opening.ts';

/** Close an open slot by hand (booked by phone, or no longer free): no more offers go out. */
export function CloseOpeningButton({ opening, disabled }: { opening: Opening; disabled?: boolean }) {
  const toast = useToast();
  const close = useCloseOpening();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onConfirm = async () => {
    setError(null);
    try {
      const answer = await close.mutateAsync(opening.id);
      toast.success(answer.message ?? 'Opening closed');
      setConfirming(false);
    } catch (failure) {
      setError(screenErrorMessage(failure, 'Could not close the opening.'));
    }
  };

  return (
    <>
      <Button
        variant="secondary"
        disabled={disabled}
        aria-label={`Close the ${opening.service} opening`}
        onClick={() => setConfirming(true)}
      >
        Close
      </Button>
      {confirming ? (
        <Modal
          title="Close this opening?"
          onClose={() => setConfirming(false)}
          footer={
            <>
              <Button variant="secondary" onClick={() => setConfirming(false)} autoFocus>
                Keep open
              </Button>
              <Button variant="danger" onClick={onConfirm} busy={close.isPending}>
                Close opening
              </Button>
            </>
          }
        >
          {error ? <Alert>{error}</Alert> : null}
          <p>
            No more alerts go out for {opening.service}, and a YES after this gets the “already filled” text.
          </p>
        </Modal>
      ) : null}
    </>
  );
}
