import type { User } from '@waitlist/contract';
import { Link } from 'react-router';
import { textNumberLink } from '../../lib/links.ts';
import { Alert } from './alert.tsx';

/**
 * Waitlist and Openings: texts go out only from a verified business number. Until there is one, says
 * so where the owner is about to send, with the way to get one.
 */
export function TextNumberNotice({ status }: { status: User['plivoNumberStatus'] }) {
  if (status === 'verified') return null;
  const title =
    status === 'pending'
      ? 'Your text number is not verified yet'
      : status === 'failed'
        ? 'Your text number failed verification'
        : 'You have no text number yet';
  return (
    <Alert tone="warning" title={title}>
      <p data-testid="text-number-notice">
        Texts to your waitlist go out from your own business number, so nothing is sent until it is verified.{' '}
        <Link to={textNumberLink}>Get your text number</Link>
      </p>
    </Alert>
  );
}
