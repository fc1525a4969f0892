import { useParams } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { qrUrl, useJoinPage } from '../api/join.ts';
import '../components/join.css';

/** /join/:slug/poster (issue 15): a printable poster, the QR code and the short link, for the front desk. */
export function PosterPage() {
  const { slug = '' } = useParams();
  const page = useJoinPage(slug);
  const link = `${window.location.origin}/join/${slug}`;
  if (page.isPending) return <Skeleton lines={6} label="Loading the poster" />;
  if (page.isError)
    return <p className="join__poster-error">{screenErrorMessage(page.error, 'Not found')}</p>;
  return (
    <div className="poster">
      <div className="poster__actions">
        <Button onClick={() => window.print()}>Print</Button>
      </div>
      <article className="poster__sheet">
        <h1 className="poster__business">{page.data.businessName}</h1>
        <p className="poster__headline">Want an earlier appointment?</p>
        <p className="poster__lead">Scan to join our waitlist. We text you when a slot opens.</p>
        <img
          className="poster__qr"
          src={qrUrl(slug, 'svg')}
          alt={`QR code for ${link}`}
          width={320}
          height={320}
        />
        <p className="poster__link">{link.replace(/^https?:\/\//, '')}</p>
        <p className="poster__small">
          Or text JOIN to our number. Msg &amp; data rates may apply. Reply STOP to opt out.
        </p>
      </article>
    </div>
  );
}
