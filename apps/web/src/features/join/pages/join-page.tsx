import type { JoinWords, Locale } from '@waitlist/contract';
import { useState } from 'react';
import { useParams } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { isApiError, screenErrorMessage } from '../../../lib/api-client.ts';
import { useJoinPage } from '../api/join.ts';
import { JoinForm } from '../components/join-form.tsx';
import { browserLocale, joinWordsIn, LanguageSwitch, useJoinLocale } from '../components/join-language.tsx';
import '../components/join.css';

function JoinLoading({ words }: { words: JoinWords }) {
  return (
    <div className="join">
      <Card className="join__card">
        <Skeleton lines={5} label={words.page.loading} />
      </Card>
    </div>
  );
}

/** An unknown link says so; anything else offers to try again. */
function JoinLoadFailed({ error, retry, locale }: { error: unknown; retry: () => void; locale: Locale }) {
  const { words, translate } = joinWordsIn(locale);
  const missing = isApiError(error) && error.status === 404;
  return (
    <div className="join">
      <Card className="join__card stack">
        <h1 className="join__title">{missing ? words.page.notFoundTitle : words.page.failedTitle}</h1>
        <p className="muted">{translate(screenErrorMessage(error, words.page.loadFailed))}</p>
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
function JoinSent({ message, words }: { message: string; words: JoinWords }) {
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
  // The browser's language first (issue 28), switched with English | Español; the whole page follows it.
  const [locale, setLocale] = useJoinLocale();
  const words = joinWordsIn(locale).words;

  if (page.isPending) return <JoinLoading words={joinWordsIn(browserLocale()).words} />;
  if (page.isError) return <JoinLoadFailed error={page.error} retry={() => page.refetch()} locale={locale} />;
  const business = page.data.businessName;
  return (
    <div className="join" lang={locale}>
      {sent ? null : <LanguageSwitch locale={locale} onChange={setLocale} />}
      <Card className="join__card stack">
        <p className="join__eyebrow">{words.page.eyebrow}</p>
        <h1 className="join__title">{business}</h1>
        {sent ? (
          <JoinSent message={sent} words={words} />
        ) : page.data.full ? (
          <Alert tone="warning" title={words.page.fullTitle}>
            {words.full(business)}
          </Alert>
        ) : (
          <JoinForm
            slug={slug}
            locale={locale}
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
