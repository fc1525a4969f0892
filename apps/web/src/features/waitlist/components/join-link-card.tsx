import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { screenErrorMessage } from '../../../lib/api-client.ts';
import { useJoinLink } from '../api/join-link.ts';
import './join-link-card.css';

/**
 * "Let customers join" (issue 15): the public link to share, its QR code (PNG and SVG) and a printable
 * poster. Customers who join confirm by text and then wait in line like everyone else.
 */
export function JoinLinkCard() {
  const link = useJoinLink();
  const toast = useToast();
  return (
    <Card className="join-link stack" aria-labelledby="join-link-title">
      <header className="card__header">
        <h2 className="card__title" id="join-link-title">
          Let customers join
        </h2>
        <p className="card__subtitle">
          Share this link or put the poster up: customers add themselves and confirm by text. Texting JOIN to
          your number works too.
        </p>
      </header>
      {link.isPending ? (
        <Skeleton lines={2} label="Loading your join link" />
      ) : link.isError ? (
        <Alert>{screenErrorMessage(link.error, 'Failed to load your join link.')}</Alert>
      ) : (
        <div className="join-link__body">
          <img
            className="join-link__qr"
            src={link.data.qrSvgUrl}
            alt="QR code of your join link"
            width={120}
            height={120}
          />
          <div className="stack">
            <p className="join-link__url" data-testid="join-link-url">
              {link.data.url}
            </p>
            <div className="join-link__actions">
              <Button
                variant="secondary"
                onClick={async () => {
                  try {
                    await navigator.clipboard.writeText(link.data.url);
                    toast.success('Link copied');
                  } catch {
                    toast.error('Copying is blocked here: select the link and copy it.');
                  }
                }}
              >
                Copy link
              </Button>
              <a className="button button--ghost" href={link.data.posterUrl} target="_blank" rel="noreferrer">
                Printable poster
              </a>
              <a className="button button--ghost" href={link.data.qrPngUrl} download="waitlist-qr.png">
                QR code (PNG)
              </a>
              <a className="button button--ghost" href={link.data.qrSvgUrl} download="waitlist-qr.svg">
                QR code (SVG)
              </a>
            </div>
          </div>
        </div>
      )}
    </Card>
  );
}
