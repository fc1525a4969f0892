import {
  type OpeningDetail,
  offerMessages,
  RELEASE_NOTE_MAX,
  releaseClaimBody,
  withReleaseNote,
} from '@waitlist/contract';
import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { TextareaField } from '../../../components/ui/textarea-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { useReleaseClaim } from '../api/release-claim.ts';

/**
 * The winner cannot come after all: the owner releases the claim and the next customer is offered it. The
 * winner is texted that the slot is no longer theirs (issue 39): the dialog shows those exact words, in the
 * winner's language as the server rendered them, with the owner's optional line below. One field, so the
 * contract's schema checks it directly (its messages are written once there).
 */
export function ReleaseClaimButton({ opening, disabled }: { opening: OpeningDetail; disabled?: boolean }) {
  const toast = useToast();
  const release = useReleaseClaim();
  const [confirming, setConfirming] = useState(false);
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | undefined>();
  const winner = opening.winner?.name ?? 'The winner';
  const close = () => {
    setConfirming(false);
    setNote('');
    setNoteError(undefined);
  };
  return (
    <>
      <Button variant="secondary" disabled={disabled} onClick={() => setConfirming(true)}>
        Winner can’t come — offer to the next
      </Button>
      {confirming ? (
        <ConfirmDialog
          title="Offer the slot to the next customer?"
          action={opening.releaseText ? `Text ${winner} and offer to the next` : 'Offer to the next'}
          keep={`Keep ${winner}`}
          danger={false}
          busy={release.isPending}
          failure="Could not offer the slot to the next customer."
          onConfirm={async () => {
            const checked = releaseClaimBody.safeParse({ note });
            if (!checked.success) {
              setNoteError(checked.error.issues[0]?.message);
              return;
            }
            const answer = await release.mutateAsync({
              id: opening.id,
              note: checked.data.note || undefined,
            });
            toast.success(answer.message ?? offerMessages.claimReleased);
            close();
          }}
          onClose={close}
        >
          <p>
            {winner} is marked as backed out and is not asked about this slot again. The next customer in line
            gets the offer; it does not count as a new alert today.
          </p>
          {opening.releaseText ? (
            <>
              <p className="release-claim__label">{winner} gets this text:</p>
              <blockquote className="release-claim__text" aria-label="The text to the winner">
                {withReleaseNote(opening.releaseText, note)}
              </blockquote>
              <TextareaField
                label="Add a line (optional)"
                value={note}
                maxLength={RELEASE_NOTE_MAX + 40}
                rows={2}
                error={noteError}
                hint={`Up to ${RELEASE_NOTE_MAX} characters, one line.`}
                onChange={(event) => {
                  setNote(event.target.value);
                  setNoteError(undefined);
                }}
              />
            </>
          ) : null}
        </ConfirmDialog>
      ) : null}
    </>
  );
}
