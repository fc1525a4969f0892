import { useParams } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { displayPhone } from '../../../lib/phone-display.ts';
import { qrUrl, useJoinPage } from '../api/join.ts';
import { JoinLanguage, LanguageSwitch, useJoinWords } from '../components/join-language.tsx';
import '../components/join.css';

function Poster() {
  const { slug = '' } = useParams();
  const page = useJoinPage(slug);
  // The sheet is for customers at the front desk: it prints in the page's language (issue 28).
  const { t, locale } = useJoinWords();
  const link = `${window.location.origin}/join/${slug}`;
  if (page.isPending) return <Skeleton lines={6} label="Loading the poster" />;
  if (page.isError)
    return <p className="join__poster-error">{screenErrorMessage(page.error, 'Not found')}</p>;
  return (
    <div className="poster" lang={locale}>
      <div className="poster__actions">
        <LanguageSwitch />
        <Button onClick={() => window.print()}>Print</Button>
      </div>
      <article className="poster__sheet">
        <h1 className="poster__business">{page.data.businessName}</h1>
        <p className="poster__headline">{t('join.poster.headline')}</p>
        <p className="poster__lead">{t('join.poster.lead')}</p>
        <img
          className="poster__qr"
          src={qrUrl(slug, 'svg')}
          alt={t('join.poster.qrAlt', { link })}
          width={320}
          height={320}
        />
        <p className="poster__link">{link.replace(/^https?:\/\//, '')}</p>
        {/* The JOIN line only with a number to text (issue 27); a business without one yet leaves it out. */}
        {page.data.textNumber ? (
          <p className="poster__text-join">
            {t('join.poster.textJoin', { number: displayPhone(page.data.textNumber) })}
          </p>
        ) : null}
        <p className="poster__small">{t('join.poster.smallPrint')}</p>
      </article>
    </div>
  );
}

/** /join/:slug/poster (issue 15): a printable poster, the QR code and the short link, for the front desk. */
export function PosterPage() {
  return (
    <JoinLanguage>
      <Poster />
    </JoinLanguage>
  );
}
