import { calendarKindLabels, calendarMessages } from '@waitlist/contract';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import {
  useCancelPendingConnection,
  useConfirmPendingConnection,
  usePendingConnection,
} from '../api/calendar.ts';

/**
 * Back from Google's or Microsoft's consent (issue 38): the account it signed in is shown, and nothing is
 * connected until the owner says yes, so a consent finished with the wrong account (or someone else's) is
 * seen and cancelled. `onDone` takes the owner back to the plain Calendar tab.
 */
export function PendingConnectionCard({ id, onDone }: { id: string; onDone: () => void }) {
  const pending = usePendingConnection(id);
  const confirm = useConfirmPendingConnection();
  const cancel = useCancelPendingConnection();
  const toast = useToast();
  const [error, setError] = useState<string | null>(null);
  const busy = confirm.isPending || cancel.isPending;

  const answer = async (yes: boolean) => {
    setError(null);
    try {
      const done = yes ? await confirm.mutateAsync(id) : await cancel.mutateAsync(id);
      toast.success(done.message ?? (yes ? calendarMessages.connected : calendarMessages.oauthCancelled));
      onDone();
    } catch (failure) {
      setError(screenErrorMessage(failure, calendarMessages.oauthFailed));
    }
  };

  return (
    <Card className="calendar-pending" role="region" aria-labelledby="calendar-pending-title">
      <h2 id="calendar-pending-title" className="calendar-connect__title">
        Confirm the calendar
      </h2>
      {pending.isPending ? <Skeleton lines={2} label="Loading the calendar to connect" /> : null}
      {pending.isError ? (
        <div className="stack">
          <Alert>{screenErrorMessage(pending.error, calendarMessages.oauthPendingNotFound)}</Alert>
          <div className="calendar-pending__actions">
            <Button variant="secondary" onClick={onDone}>
              Back to calendars
            </Button>
          </div>
        </div>
      ) : null}
      {pending.data ? (
        <div className="stack">
          <p className="calendar-pending__question">
            {calendarMessages.oauthConfirm(pending.data.account ?? 'this account', pending.data.name)}
          </p>
          <p className="calendar-pending__hint">
            {calendarKindLabels[pending.data.kind]}: cancellations there will be offered to your waitlist, and
            claimed slots booked into it. If this is not your account, cancel.
          </p>
          {error ? <Alert reveal>{error}</Alert> : null}
          <div className="calendar-pending__actions">
            <Button onClick={() => answer(true)} busy={confirm.isPending} disabled={busy}>
              Connect
            </Button>
            <Button variant="secondary" onClick={() => answer(false)} busy={cancel.isPending} disabled={busy}>
              Cancel
            </Button>
          </div>
        </div>
      ) : null}
    </Card>
  );
}
