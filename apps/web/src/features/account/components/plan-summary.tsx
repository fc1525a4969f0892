import { planLabels, type User } from '@waitlist/contract';
import { Link } from 'react-router';
import { Card } from '../../../components/ui/card.tsx';

const dateFormat = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' });

export function PlanSummary({ user }: { user: User }) {
  const trialEnds =
    user.subscriptionPlan === 'free_trial' && user.trialEndDate ? new Date(user.trialEndDate) : null;
  return (
    <Card className="plan-summary">
      <div>
        <p className="eyebrow">Current plan</p>
        <p className="plan-summary__plan">{planLabels[user.subscriptionPlan]}</p>
        {trialEnds && !Number.isNaN(trialEnds.getTime()) ? (
          <p className="muted plan-summary__note">Trial ends {dateFormat.format(trialEnds)}</p>
        ) : null}
      </div>
      <div className="plan-summary__links">
        <Link to="/account?tab=plan">View plan</Link>
        <Link to="/account?tab=billing">Billing</Link>
      </div>
    </Card>
  );
}
