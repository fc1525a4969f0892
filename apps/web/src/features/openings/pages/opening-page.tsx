import { DEFAULT_TIME_ZONE, type OpeningDetail } from '@waitlist/contract';
import { Link, useParams } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { isApiError, screenErrorMessage } from '../../../lib/api-client.ts';
import { useOpening } from '../api/get-opening.ts';
import { useOpenings } from '../api/get-openings.ts';
import { CloseOpeningButton } from '../components/close-opening-button.tsx';
import { OfferRow } from '../components/offer-row.tsx';
import { OpeningOutcome } from '../components/opening-card.tsx';
import { OpeningStats, OpeningStatusBadge } from '../components/opening-status.tsx';
import { ReleaseClaimButton } from '../components/release-claim-button.tsx';
import { money, slotTime } from '../components/zoned-time.ts';
import '../components/openings.css';

/** How the alert goes out: "automatic: waves of 3, 10 min to claim", "one at a time", "everyone at once". */
function modeLabel(opening: OpeningDetail): string {
  const size = opening.waveSize;
  const waves =
    size !== null
      ? `${size === 1 ? 'one at a time' : `waves of ${size}`}, ${opening.claimWindowMinutes} min to claim`
      : null;
  if (opening.mode === 'all') return 'everyone at once';
  if (opening.mode === 'waves') return waves ?? 'waves';
  return `automatic: ${waves ?? 'everyone at once'}`;
}

/** /openings/:id: one alert, live, with each customer it was offered to. */
export function OpeningPage() {
  const { id = '' } = useParams();
  const opening = useOpening(id);
  // The list carries the business's time zone and read-only state.
  const overview = useOpenings();
  const timeZone = overview.data?.timeZone ?? DEFAULT_TIME_ZONE;

  if (opening.isPending) {
    return (
      <div className="page">
        <Skeleton lines={6} label="Loading the opening" />
      </div>
    );
  }
  if (opening.isError) {
    const missing = isApiError(opening.error) && opening.error.status === 404;
    return (
      <div className="page stack">
        <Link to="/openings">← Openings</Link>
        <Alert>
          {missing
            ? 'This opening does not exist.'
            : screenErrorMessage(opening.error, 'Failed to load the opening.')}
        </Alert>
        {missing ? null : (
          <Button variant="secondary" onClick={() => opening.refetch()}>
            Try again
          </Button>
        )}
      </div>
    );
  }

  const data = opening.data;
  return (
    <div className="page opening">
      <Link to="/openings" className="back-link">
        ← Openings
      </Link>
      <header className="split-header split-header--top opening__header">
        <div>
          <h1 className="page__title">{data.service}</h1>
          <p className="page__lead">
            {slotTime(data.startsAt, timeZone)} · {data.durationMinutes} min
            {data.priceCents !== null ? ` · ${money(data.priceCents)}` : ''}
            {data.staffName ? ` · with ${data.staffName}` : ''} · {modeLabel(data)}
          </p>
        </div>
        <OpeningStatusBadge status={data.status} />
      </header>
      <div className="stack">
        <Card className="stack">
          <OpeningStats opening={data} />
          <OpeningOutcome opening={data} timeZone={timeZone} />
          {data.status === 'open' ? (
            <div>
              <CloseOpeningButton opening={data} disabled={overview.data?.readOnly} />
            </div>
          ) : null}
          {data.status === 'filled' && data.winner ? (
            <div>
              <ReleaseClaimButton opening={data} disabled={overview.data?.readOnly} />
            </div>
          ) : null}
        </Card>
        <section aria-labelledby="offers-title" className="stack">
          <h2 id="offers-title" className="card__title">
            Offers
          </h2>
          {data.offers.length === 0 ? (
            <Card>
              <p className="muted">Nobody on the waitlist fit this slot, so no text went out.</p>
            </Card>
          ) : (
            <ul className="list-stack offer-list">
              {[...data.offers]
                .sort((a, b) => a.rank - b.rank)
                .map((offer) => (
                  <OfferRow key={offer.customerId} offer={offer} timeZone={timeZone} />
                ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}
