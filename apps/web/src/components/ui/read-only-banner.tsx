import { Link } from 'react-router';
import { Alert } from './alert.tsx';

/**
 * The waitlist and alerts are read-only while billing is not in good standing (trial expired, payment
 * past due, canceled): says why, and where to fix it.
 */
export function ReadOnlyBanner({ reason }: { reason: string | null }) {
  return (
    <Alert tone="warning" title="Read-only">
      <p>
        {reason ?? 'Your plan is not active.'} You can still look at everything, but changes and texts are
        paused. <Link to="/account?tab=plan">Choose a plan</Link>
      </p>
    </Alert>
  );
}
