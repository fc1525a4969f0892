import { type Opening, offerMessages } from '@waitlist/contract';
import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { useReleaseClaim } from '../api/release-claim.ts';

/** The winner cannot come after all: the owner releases the claim and the next customer is offered it. */
export function ReleaseClaimButton({ opening, disabled }: { opening: Opening; disabled?: boolean }) {
  const toast = useToast();
  const release = useReleaseClaim();
  const [confirming, setConfirming] = useState(false);
  const winner = opening.winner?.name ?? 'The winner';
  return (
    <>
      <Button variant="secondary" disabled={disabled} onClick={() => setConfirming(true)}>
        Winner can’t come — offer to the next
      </Button>
      {confirming ? (
        <ConfirmDialog
          title="Offer the slot to the next customer?"
          action="Offer to the next"
          keep={`Keep ${winner}`}
          danger={false}
          busy={release.isPending}
          failure="Could not offer the slot to the next customer."
          onConfirm={async () => {
            const answer = await release.mutateAsync(opening.id);
            toast.success(answer.message ?? offerMessages.claimReleased);
            setConfirming(false);
          }}
          onClose={() => setConfirming(false)}
        >
          <p>
            {winner} is marked as backed out and is not asked about this slot again. The next customer in line
            gets the offer; it does not count as a new alert today.
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
