import { type CalendarProposal, calendarMessages, type OpeningPreview } from '@waitlist/contract';
import { type ComponentType, useState } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { formatInZone } from '../../../lib/clock.ts';
import { useAnswerProposal, useCalendarProposals, usePreviewProposal } from '../api/calendar.ts';
import './calendar.css';

const dayIn = (instant: Date, timeZone: string | undefined) =>
  formatInZone(instant, timeZone, { year: 'numeric', month: 'numeric', day: 'numeric' });

/** "3:30 pm", or "Sat 3:30 pm" when not today, in the business's time zone. */
export function proposalTime(iso: string, timeZone?: string, now = new Date()): string {
  const options: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };
  const today = dayIn(new Date(iso), timeZone) === dayIn(now, timeZone);
  return formatInZone(iso, timeZone, today ? options : { ...options, weekday: 'short' });
}

/** The "who gets the text" step (features/openings' preview, passed in by the app: features stay apart). */
export type PreviewStep = ComponentType<{
  preview: OpeningPreview;
  timeZone: string;
  sending: boolean;
  error: string | null;
  onBack: () => void;
  onConfirm: () => void;
}>;

type ProposalCardProps = { proposal: CalendarProposal; timeZone: string; PreviewStep: PreviewStep };

function ProposalCard({ proposal, timeZone, PreviewStep }: ProposalCardProps) {
  const toast = useToast();
  const answer = useAnswerProposal();
  const previewing = usePreviewProposal();
  const [error, setError] = useState<string | null>(null);
  const [preview, setPreview] = useState<OpeningPreview | null>(null);
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
  // "Text the waitlist" shows who gets the text first, as a slot typed by hand does; the owner confirms there.
  const review = async () => {
    setError(null);
    try {
      setPreview(await previewing.mutateAsync(proposal.id));
    } catch (problem) {
      setError(screenErrorMessage(problem, 'Could not work out who gets the text.'));
    }
  };
  const busy = answer.isPending ? answer.variables?.action : undefined;
  const scheduled = proposal.status === 'scheduled';
  if (preview && !scheduled) {
    return (
      <li aria-label={proposal.title}>
        <Card className="cancellation-card">
          <PreviewStep
            preview={preview}
            timeZone={timeZone}
            sending={busy === 'open'}
            error={error}
            onBack={() => setPreview(null)}
            onConfirm={() => act('open')}
          />
        </Card>
      </li>
    );
  }
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
              <Button busy={previewing.isPending} disabled={busy === 'dismiss'} onClick={review}>
                Text the waitlist
              </Button>
              <Button
                variant="ghost"
                busy={busy === 'dismiss'}
                disabled={previewing.isPending}
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
 * "Text the waitlist" shows who gets the text, and the owner's confirmation sends it (issue 39). Nothing at
 * all while none wait, or when they cannot be read (the page's own content matters more than this extra).
 */
export function CancellationCards({ PreviewStep }: { PreviewStep: PreviewStep }) {
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
          <ProposalCard key={proposal.id} proposal={proposal} timeZone={timeZone} PreviewStep={PreviewStep} />
        ))}
      </ul>
    </section>
  );
}
