import type { ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { ReadOnlyBanner } from '../../../components/ui/read-only-banner.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { TextNumberNotice } from '../../../components/ui/text-number-notice.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useCurrentUser } from '../../../lib/auth.tsx';
import { useOpenings } from '../api/get-openings.ts';
import { OpenSlotForm } from '../components/open-slot-form.tsx';
import { OpeningCard } from '../components/opening-card.tsx';
import '../components/openings.css';

/** /openings: open a cancelled slot, and watch each alert live. `cancellations`: the calendar's, on top (issue 29). */
export function OpeningsPage({ cancellations }: { cancellations?: ReactNode }) {
  const openings = useOpenings();
  const user = useCurrentUser();

  return (
    <div className="page openings">
      <header className="openings__header">
        <h1 className="page__title">Openings</h1>
        <p className="page__lead">A cancelled appointment becomes a text to your waitlist.</p>
      </header>
      {cancellations}
      {openings.isPending ? (
        <Card>
          <Skeleton lines={6} label="Loading your openings" />
        </Card>
      ) : openings.isError ? (
        <Card className="stack">
          <Alert>{screenErrorMessage(openings.error, 'Failed to load your openings.')}</Alert>
          <Button variant="secondary" onClick={() => openings.refetch()}>
            Try again
          </Button>
        </Card>
      ) : (
        <div className="page-columns">
          <div className="stack">
            {openings.data.readOnly ? <ReadOnlyBanner reason={openings.data.readOnlyReason} /> : null}
            <TextNumberNotice status={user.plivoNumberStatus} />
            <OpenSlotForm
              timeZone={openings.data.timeZone}
              alertsToday={openings.data.alertsToday}
              readOnly={openings.data.readOnly}
            />
          </div>
          <section className="stack" aria-labelledby="recent-openings">
            <h2 id="recent-openings" className="card__title">
              Recent openings
            </h2>
            {openings.data.openings.length === 0 ? (
              <Card>
                <p className="muted">No openings yet. When someone cancels, open the slot here.</p>
              </Card>
            ) : (
              <ul className="list-stack opening-list">
                {openings.data.openings.map((opening) => (
                  <OpeningCard
                    key={opening.id}
                    opening={opening}
                    timeZone={openings.data.timeZone}
                    readOnly={openings.data.readOnly}
                  />
                ))}
              </ul>
            )}
          </section>
        </div>
      )}
    </div>
  );
}
