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
 * The Account page's Calendar tab (issue 29): the calendars a cancellation is read from, their settings, and
 * connecting another one.
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
  return (
    <section className="stack calendar-card" aria-labelledby="calendar-card-title">
      <Card>
        <header className="card__header">
          <h2 id="calendar-card-title" className="card__title">
            Calendar
          </h2>
          <p className="card__subtitle">
            Connect the calendar you book in. When an appointment there is cancelled, the slot is offered to
            your waitlist, and a claimed slot is booked back into it.
          </p>
        </header>
        {returnedError ? <Alert reveal>{returnedError.slice(0, 300)}</Alert> : null}
        {pendingId ? <PendingConnectionCard key={pendingId} id={pendingId} onDone={backToCalendars} /> : null}
        {connections.isPending ? <Skeleton lines={4} label="Loading your calendars" /> : null}
        {connections.isError ? (
          <div className="stack">
            <Alert>{screenErrorMessage(connections.error, 'Failed to load your calendars.')}</Alert>
            <Button variant="secondary" onClick={() => connections.refetch()}>
              Try again
            </Button>
          </div>
        ) : null}
        {connected.length === 0 ? connectForm : null}
      </Card>
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
    </section>
  );
}
