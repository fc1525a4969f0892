import { Link } from 'react-router';
import { Card } from '../../../components/ui/card.tsx';
import { useCurrentUser } from '../../../lib/auth.tsx';
import { OnboardingSteps } from '../components/onboarding-steps.tsx';
import '../../../components/ui/button.css';

export function CongratulationsPage() {
  const user = useCurrentUser();
  return (
    <div className="page onboarding">
      <OnboardingSteps current={1} />
      <Card className="onboarding-card">
        <span className="welcome-hero" aria-hidden="true">
          <svg
            viewBox="0 0 24 24"
            width="30"
            height="30"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
            aria-hidden="true"
          >
            <path strokeLinejoin="round" d="M4 20 8.5 7.5l8 8L4 20Z" />
            <path
              strokeLinecap="round"
              d="M13 4.5c.8 1.2.8 2.3 0 3.5M19.5 11c-1.2-.8-2.3-.8-3.5 0M15.5 8.5 20 4"
            />
            <circle cx="18.5" cy="15.5" r="1" fill="currentColor" stroke="none" />
            <circle cx="10" cy="3.5" r="1" fill="currentColor" stroke="none" />
          </svg>
        </span>
        <div>
          <h1 className="page__title">Congratulations, {user.firstName}!</h1>
          <p className="page__lead">
            Your account is ready. One more step and you can start filling cancelled appointments from your
            waitlist.
          </p>
        </div>
        <ul className="list-stack welcome-list">
          <li>Keep a waitlist of customers who want an earlier slot.</li>
          <li>When someone cancels, text the waitlist from your own business number.</li>
          <li>The first customer to reply YES gets the slot. Everyone else is told it is filled.</li>
        </ul>
        <div className="onboarding-actions">
          <Link className="button button--primary" to="/congratulations/business-details">
            Next
          </Link>
        </div>
      </Card>
    </div>
  );
}
