import { planLabels, type User } from '@waitlist/contract';
import { Link } from 'react-router';
import { Card } from '../../../components/ui/card.tsx';

export function ComingSoonCard({ section, user }: { section: 'plan' | 'billing'; user: User }) {
  const title = section === 'plan' ? 'Your Plan' : 'Billing';
  return (
    <Card className="coming-soon">
      <span className="coming-soon__icon" aria-hidden="true">
        {section === 'plan' ? '✦' : '▭'}
      </span>
      <h2 className="card__title">{title}</h2>
      <p className="muted">
        Plans and billing are coming soon. You are on the <strong>{planLabels[user.subscriptionPlan]}</strong>
        ; there is nothing to pay yet.
      </p>
      <Link to="/account?tab=information">Back to my information</Link>
    </Card>
  );
}
