import { customerWords } from '@waitlist/contract';
import { useState } from 'react';
import { useParams } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { isApiError, screenErrorMessage } from '../../../lib/api-client.ts';
import { useJoinPage } from '../api/join.ts';
import { JoinForm } from '../components/join-form.tsx';
import '../components/join.css';

/** What the customer reads on the page: the catalogue of customer words (issue 25). */
const words = customerWords().join;

function JoinLoading() {
  return (
    <div className="join">
      <Card className="join__card">
        <Skeleton lines={5} label={words.page.loading} />
      </Card>
    </div>
  );
}

/** An unknown link says so; anything else offers to try again. */
function JoinLoadFailed({ error, retry }: { error: unknown; retry: () => void }) {
  const missing = isApiError(error) && error.status === 404;
  return (
    <div className="join">
      <Card className="join__card stack">
        <h1 className="join__title">{missing ? words.page.notFoundTitle : words.page.failedTitle}</h1>
        <p className="muted">{screenErrorMessage(error, words.page.loadFailed)}</p>
        {missing ? null : (
          <Button variant="secondary" onClick={retry}>
            {words.page.tryAgain}
          </Button>
        )}
      </Card>
    </div>
  );
}

/** After the request: the server's answer says to reply YES to the confirmation text. */
function JoinSent({ message }: { message: string }) {
  return (
    <div className="stack" role="status">
      <h2 className="card__title">{words.page.doneTitle}</h2>
      <p>{message}</p>
      <p className="muted">{words.page.noTextHint}</p>
    </div>
  );
}

/**
 * /join/:slug (issue 15): a customer joins a business's waitlist. Name, mobile number and the consent box;
 * a confirmation text follows, and only their YES puts them on the list (double opt-in). The page loads no
 * account code and shows nothing about other customers.
 */
export function JoinPage() {
  const { slug = '' } = useParams();
  const page = useJoinPage(slug);
  const [sent, setSent] = useState<string | null>(null);

  if (page.isPending) return <JoinLoading />;
  if (page.isError) return <JoinLoadFailed error={page.error} retry={() => page.refetch()} />;
  const business = page.data.businessName;
  return (
    <div className="join">
      <Card className="join__card stack">
        <p className="join__eyebrow">{words.page.eyebrow}</p>
        <h1 className="join__title">{business}</h1>
        {sent ? (
          <JoinSent message={sent} />
        ) : page.data.full ? (
          <Alert tone="warning" title={words.page.fullTitle}>
            {words.full(business)}
          </Alert>
        ) : (
          <JoinForm
            slug={slug}
            business={business}
            consentText={page.data.consentText}
            proofRequired={page.data.proofRequired}
            services={page.data.services ?? []}
            staff={page.data.staff ?? []}
            onJoined={setSent}
          />
        )}
      </Card>
      <p className="join__footer">Waitlist &amp; Text</p>
    </div>
  );
}
