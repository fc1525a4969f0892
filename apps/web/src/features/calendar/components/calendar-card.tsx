import { useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useCalendarConnections } from '../api/calendar.ts';
import { ConnectCalendarForm } from './connect-calendar-form.tsx';
import { ConnectionCard } from './connection-card.tsx';
import { PendingConnectionCard } from './pending-connection-card.tsx';
import './calendar.css';

/**
 * The connected calendars (issue 29), on Settings' Calendar page (issue 39): the calendars a cancellation is
 * read from, their settings, and connecting another one.
 */
export function CalendarCard() {
  const connections = useCalendarConnections();
  // Back from Google's consent screen: why it did not connect, when it did not, or the account to confirm
  // before it is connected (issue 38).
  const [params, setParams] = useSearchParams();
  const returnedError = params.get('calendarError');
  const pendingId = params.get('pending');
  const backToCalendars = () =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('pending');
        return next;
      },
      { replace: true },
    );
  const connected = connections.data?.data ?? [];
  // The local calendar is one per business: once connected, it is not offered again.
  const available = (connections.data?.available ?? []).filter(
    (kind) => kind !== 'local' || !connected.some((connection) => connection.kind === 'local'),
  );
  // While an account waits for the owner's yes, it is the one thing to answer: no other connect form.
  const connectForm =
    connections.data && !pendingId ? (
      <ConnectCalendarForm available={available} another={connected.length > 0} />
    ) : null;
  const loading = connections.isPending ? <Skeleton lines={4} label="Loading your calendars" /> : null;
  const failed = connections.isError ? (
    <div className="stack">
      <Alert>{screenErrorMessage(connections.error, 'Failed to load your calendars.')}</Alert>
      <Button variant="secondary" onClick={() => connections.refetch()}>
        Try again
      </Button>
    </div>
  ) : null;
  const firstForm = connected.length === 0 ? connectForm : null;
  // The page's title says what a calendar is for; this card holds what needs doing first, if anything.
  const firstCard = Boolean(returnedError || pendingId || loading || failed || firstForm);
  return (
    <div className="stack calendar-card">
      {firstCard ? (
        <Card className="stack">
          {returnedError ? <Alert reveal>{returnedError.slice(0, 300)}</Alert> : null}
          {pendingId ? (
            <PendingConnectionCard key={pendingId} id={pendingId} onDone={backToCalendars} />
          ) : null}
          {loading}
          {failed}
          {firstForm}
        </Card>
      ) : null}
      {/* Once a calendar is connected, it comes first: connecting another is the rarer step. */}
      {connected.length > 0 ? (
        <>
          <ul className="list-stack calendar-card__list" aria-label="Connected calendars">
            {connected.map((connection) => (
              <ConnectionCard key={connection.id} connection={connection} />
            ))}
          </ul>
          {available.length > 0 && connectForm ? <Card>{connectForm}</Card> : null}
        </>
      ) : null}
    </div>
  );
}
