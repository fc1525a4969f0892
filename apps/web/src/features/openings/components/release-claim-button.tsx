import { type Opening, offerMessages } from '@waitlist/contract';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useReleaseClaim } from '../api/release-claim.ts';

/** The winner cannot come after all: the owner releases the claim and the next customer is offered it. */
export function ReleaseClaimButton({ opening, disabled }: { opening: Opening; disabled?: boolean }) {
  const toast = useToast();
  const release = useReleaseClaim();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const winner = opening.winner?.name ?? 'The winner';

  const onConfirm = async () => {
    setError(null);
    try {
      const answer = await release.mutateAsync(opening.id);
      toast.success(answer.message ?? offerMessages.claimReleased);
      setConfirming(false);
    } catch (failure) {
      setError(screenErrorMessage(failure, 'Could not offer the slot to the next customer.'));
    }
  };

  return (
    <>
      <Button variant="secondary" disabled={disabled} onClick={() => setConfirming(true)}>
        Winner can’t come — offer to the next
      </Button>
      {confirming ? (
        <Modal
          title="Offer the slot to the next customer?"
          onClose={() => setConfirming(false)}
          footer={
            <>
              <Button variant="secondary" onClick={() => setConfirming(false)} autoFocus>
                Keep {winner}
              </Button>
              <Button onClick={onConfirm} busy={release.isPending}>
                Offer to the next
              </Button>
            </>
          }
        >
          {error ? <Alert>{error}</Alert> : null}
          <p>
            {winner} is marked as backed out and is not asked about this slot again. The next customer in line
            gets the offer; it does not count as a new alert today.
          </p>
        </Modal>
      ) : null}
    </>
  );
}
