import type { Opening } from '@waitlist/contract';
import { Link } from 'react-router';
import { displayPhone } from '../../../lib/phone-display.ts';
import { CloseOpeningButton } from './close-opening-button.tsx';
import { OpeningStats, OpeningStatusBadge } from './opening-status.tsx';
import { clockTime, money, slotTime } from './zoned-time.ts';
import '../../../components/ui/button.css';

/** One opening in the list: when, what, its live numbers and who won. */
export function OpeningCard({
  opening,
  timeZone,
  readOnly,
}: {
  opening: Opening;
  timeZone: string;
  readOnly: boolean;
}) {
  return (
    <li
      className="tile opening-card"
      aria-label={`${opening.service}, ${slotTime(opening.startsAt, timeZone)}`}
    >
      <div className="opening-card__top">
        <div>
          <Link to={`/openings/${opening.id}`} className="opening-card__title">
            {opening.service}
          </Link>
          <p className="opening-card__when">
            {slotTime(opening.startsAt, timeZone)} · {opening.durationMinutes} min
            {opening.priceCents !== null ? ` · ${money(opening.priceCents)}` : ''}
          </p>
        </div>
        <OpeningStatusBadge status={opening.status} />
      </div>
      <OpeningStats opening={opening} />
      <OpeningOutcome opening={opening} timeZone={timeZone} />
      <div className="opening-card__actions">
        <Link to={`/openings/${opening.id}`} className="button button--ghost">
          Details
        </Link>
        {opening.status === 'open' ? <CloseOpeningButton opening={opening} disabled={readOnly} /> : null}
      </div>
    </li>
  );
}

export function OpeningOutcome({ opening, timeZone }: { opening: Opening; timeZone: string }) {
  if (opening.winner) {
    return (
      <p className="opening-outcome opening-outcome--won" data-testid="opening-winner">
        <span aria-hidden="true">★ </span>
        {/* displayPhone already has its own brackets: "(512) 555-0102", never "((512) 555-0102)". */}
        Claimed by <strong>{opening.winner.name}</strong> · {displayPhone(opening.winner.phone)}
        {opening.filledAt ? ` at ${clockTime(opening.filledAt, timeZone)}` : ''}
      </p>
    );
  }
  if (opening.status === 'open') {
    return (
      <p className="opening-outcome" role="status">
        Waiting for a YES
        {opening.mode === 'waves'
          ? ` · wave ${opening.currentWave}${opening.nextWaveAt ? `, next wave at ${clockTime(opening.nextWaveAt, timeZone)}` : ''}`
          : ''}
      </p>
    );
  }
  return (
    <p className="opening-outcome">
      {opening.status === 'expired' ? 'Nobody claimed it before it started.' : 'Closed by hand.'}
    </p>
  );
}
