import type { Offer } from '@waitlist/contract';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge.tsx';
import { displayPhone } from '../../../lib/phone-display.ts';
import { rankReason, shortClock, skippedLabel } from './offer-words.ts';
import { clockTime } from './zoned-time.ts';

type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

/** What happened to each customer of the alert (issues 15 and 26), one badge each. */
const outcomeLabels: Record<Offer['outcome'], { label: string; tone: Tone }> = {
  claimed: { label: 'Claimed', tone: 'success' },
  backed_out: { label: 'Backed out', tone: 'warning' },
  released: { label: 'Released by you', tone: 'warning' },
  waiting_quiet_hours: { label: 'Waits for quiet hours to end', tone: 'info' },
  not_texted_quiet_hours: { label: skippedLabel('quiet_hours'), tone: 'warning' },
  not_texted_daily_cap: { label: skippedLabel('daily_cap'), tone: 'warning' },
  told_filled: { label: 'Told it’s filled', tone: 'neutral' },
  opted_out: { label: 'Opted out', tone: 'danger' },
  no_answer: { label: 'No answer', tone: 'neutral' },
  texted: { label: 'Texted', tone: 'info' },
  next_wave: { label: 'Next wave', tone: 'neutral' },
  not_texted: { label: 'Not texted', tone: 'warning' },
};

/** One customer of the alert: their place and why, when they were texted, what came of it. */
export function OfferRow({ offer, timeZone }: { offer: Offer; timeZone: string }) {
  const outcome = outcomeLabels[offer.outcome];
  return (
    <li className="offer-row" aria-label={offer.name}>
      <div className="offer-row__main">
        <Link to={`/waitlist/${offer.customerId}`} className="offer-row__name">
          {offer.name}
        </Link>
        <p className="offer-row__reason">{rankReason(offer.rank, offer.reason)}</p>
        <p className="offer-row__meta">
          {displayPhone(offer.phone)} · wave {offer.wave}
          {offer.sentAt ? ` · texted ${clockTime(offer.sentAt, timeZone)}` : ''}
          {offer.outcome === 'waiting_quiet_hours' && offer.sendAt
            ? ` · goes out at ${shortClock(offer.sendAt, timeZone)}`
            : ''}
        </p>
        {offer.question ? (
          <p className="offer-row__question">
            <Link
              to={`/inbox/${offer.customerId}`}
              aria-label={`Asked: ${offer.question.body}. Open the conversation`}
            >
              Asked: “{offer.question.body}”
            </Link>
          </p>
        ) : null}
      </div>
      <Badge tone={outcome.tone}>{outcome.label}</Badge>
    </li>
  );
}
