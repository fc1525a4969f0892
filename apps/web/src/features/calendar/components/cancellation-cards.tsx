import { type CalendarProposal, calendarMessages } from '@waitlist/contract';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { formatInZone } from '../../../lib/clock.ts';
import { useAnswerProposal, useCalendarProposals } from '../api/calendar.ts';
import './calendar.css';

const dayIn = (instant: Date, timeZone: string | undefined) =>
  formatInZone(instant, timeZone, { year: 'numeric', month: 'numeric', day: 'numeric' });

/** "3:30 pm", or "Sat 3:30 pm" when not today, in the business's time zone. */
export function proposalTime(iso: string, timeZone?: string, now = new Date()): string {
  const options: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };
  const today = dayIn(new Date(iso), timeZone) === dayIn(now, timeZone);
  return formatInZone(iso, timeZone, today ? options : { ...options, weekday: 'short' });
}

function ProposalCard({ proposal, timeZone }: { proposal: CalendarProposal; timeZone: string }) {
  const toast = useToast();
  const answer = useAnswerProposal();
  const [error, setError] = useState<string | null>(null);
  const act = async (action: 'open' | 'dismiss') => {
    setError(null);
    try {
      const result = await answer.mutateAsync({ id: proposal.id, action });
      toast.success(
        result.message ??
          (action === 'open' ? calendarMessages.proposalOpened : calendarMessages.proposalDismissed),
      );
    } catch (problem) {
      setError(
        screenErrorMessage(problem, action === 'open' ? 'Could not open the slot.' : 'Could not dismiss it.'),
      );
    }
  };
  const busy = answer.isPending ? answer.variables?.action : undefined;
  const scheduled = proposal.status === 'scheduled';
  return (
    <li aria-label={proposal.title}>
      <Card className={`cancellation-card${scheduled ? ' cancellation-card--scheduled' : ''}`}>
        <p className="cancellation-card__title">
          {calendarMessages.proposalTitle(proposalTime(proposal.startsAt, timeZone), proposal.title)}
        </p>
        {scheduled && proposal.opensAt ? (
          <p className="muted cancellation-card__note">
            Opens by itself at {proposalTime(proposal.opensAt, timeZone)}
          </p>
        ) : null}
        {error ? <Alert>{error}</Alert> : null}
        <div className="cancellation-card__actions">
          {scheduled ? (
            <Button variant="secondary" busy={busy === 'dismiss'} onClick={() => act('dismiss')}>
              Stop
            </Button>
          ) : (
            <>
              <Button busy={busy === 'open'} disabled={busy === 'dismiss'} onClick={() => act('open')}>
                Text the waitlist
              </Button>
              <Button
                variant="ghost"
                busy={busy === 'dismiss'}
                disabled={busy === 'open'}
                onClick={() => act('dismiss')}
              >
                Dismiss
              </Button>
            </>
          )}
        </div>
      </Card>
    </li>
  );
}

/**
 * Cancellations found in the owner's calendar (issue 29), at the top of the inbox and the openings page:
 * one tap texts the waitlist. Nothing at all while none wait, or when they cannot be read (the page's own
 * content matters more than this extra).
 */
export function CancellationCards() {
  const proposals = useCalendarProposals();
  const timeZone = proposals.data?.timeZone ?? 'UTC';
  const waiting = (proposals.data?.proposals ?? []).filter(
    (proposal) => proposal.status === 'proposed' || proposal.status === 'scheduled',
  );
  if (waiting.length === 0) return null;
  return (
    <section className="cancellation-cards" aria-label="Cancellations from your calendar">
      <ul className="list-stack">
        {waiting.map((proposal) => (
          <ProposalCard key={proposal.id} proposal={proposal} timeZone={timeZone} />
        ))}
      </ul>
    </section>
  );
}
