import { useState } from 'react';
import { useParams } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { isApiError, screenErrorMessage } from '../../../lib/api-client.ts';
import { useJoinPage } from '../api/join.ts';
import { JoinForm } from '../components/join-form.tsx';
import { JoinLanguage, LanguageSwitch, useJoinWords } from '../components/join-language.tsx';
import '../components/join.css';

function JoinLoading() {
  const { t } = useJoinWords();
  return (
    <div className="join">
      <Card className="join__card">
        <Skeleton lines={5} label={t('join.page.loading')} />
      </Card>
    </div>
  );
}

/** An unknown link says so; anything else offers to try again. */
function JoinLoadFailed({ error, retry }: { error: unknown; retry: () => void }) {
  const { t, translate } = useJoinWords();
  const missing = isApiError(error) && error.status === 404;
  return (
    <div className="join">
      <Card className="join__card stack">
        <h1 className="join__title">{missing ? t('join.page.notFoundTitle') : t('join.page.failedTitle')}</h1>
        <p className="muted">{translate(screenErrorMessage(error, t('join.page.loadFailed')))}</p>
        {missing ? null : (
          <Button variant="secondary" onClick={retry}>
            {t('join.page.tryAgain')}
          </Button>
        )}
      </Card>
    </div>
  );
}

/** After the request: the server's answer says to reply YES to the confirmation text. */
function JoinSent({ message }: { message: string }) {
  const { t } = useJoinWords();
  return (
    <div className="stack" role="status">
      <h2 className="card__title">{t('join.page.doneTitle')}</h2>
      <p>{message}</p>
      <p className="muted">{t('join.page.noTextHint')}</p>
    </div>
  );
}

function JoinScreen() {
  const { slug = '' } = useParams();
  const page = useJoinPage(slug);
  const [sent, setSent] = useState<string | null>(null);
  const { t, locale } = useJoinWords();

  if (page.isPending) return <JoinLoading />;
  if (page.isError) return <JoinLoadFailed error={page.error} retry={() => page.refetch()} />;
  const business = page.data.businessName;
  return (
    <div className="join" lang={locale}>
      {sent ? null : <LanguageSwitch />}
      <Card className="join__card stack">
        <p className="join__eyebrow">{t('join.page.eyebrow')}</p>
        <h1 className="join__title">{business}</h1>
        {sent ? (
          <JoinSent message={sent} />
        ) : page.data.full ? (
          <Alert tone="warning" title={t('join.page.fullTitle')}>
            {t('join.full', { business })}
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

/**
 * /join/:slug (issue 15): a customer joins a business's waitlist. Name, mobile number and the consent box;
 * a confirmation text follows, and only their YES puts them on the list (double opt-in). The page loads no
 * account code and shows nothing about other customers. It opens in the browser's language (issue 28),
 * switched with English | Español; every word follows it.
 */
export function JoinPage() {
  return (
    <JoinLanguage>
      <JoinScreen />
    </JoinLanguage>
  );
}
