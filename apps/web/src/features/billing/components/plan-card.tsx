import { type BillingPeriod, ENTERPRISE_SALES_EMAIL, type Pricing } from '@waitlist/contract';
import { type ReactNode, useId } from 'react';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { formatShortDate } from '../utils/billing-time.ts';
import type { PlanDescription } from '../utils/plans.ts';
import { formatMoney, perMonthPrice, planSavingPercent } from '../utils/pricing.ts';
import './plan-card.css';

/** Where a plan card stands against the owner's subscription. */
export type PlanCardState =
  | { kind: 'available' }
  | { kind: 'current' }
  /** The owner's plan, billed over the other period: selectable, to switch periods. */
  | { kind: 'current-other-period'; period: BillingPeriod }
  | { kind: 'scheduled'; startsAt: Date | null };

type PlanCardProps = {
  description: PlanDescription;
  pricing: Pricing | undefined;
  period: BillingPeriod;
  state: PlanCardState;
  onSelect: () => void;
  /** SPEC §2: the owner's plan card offers cancel (or resume, while set to cancel) under its button. */
  manage?: ReactNode;
};

export function PlanCard({ description, pricing, period, state, onSelect, manage }: PlanCardProps) {
  const titleId = useId();
  const saving = pricing ? planSavingPercent(pricing, description.type) : 0;
  const isCurrent = state.kind === 'current';
  return (
    <article className={`plan-card${isCurrent ? ' plan-card--current' : ''}`} aria-labelledby={titleId}>
      <header className="split-header plan-card__header">
        <h3 id={titleId} className="plan-card__name">
          {description.name}
        </h3>
        <div className="badge-list plan-card__badges">
          {isCurrent ? <Badge tone="primary">Current Plan</Badge> : null}
          {period === 'yearly' && saving > 0 ? <Badge tone="success">Save {saving}%</Badge> : null}
        </div>
      </header>
      <p className="plan-card__tagline">{description.tagline}</p>
      <PlanPrice pricing={pricing} plan={description.type} period={period} />
      <ul className="plan-card__features">
        {description.features.map((feature) => (
          <li key={feature}>{feature}</li>
        ))}
      </ul>
      <div className="plan-card__action">
        {state.kind === 'current' ? (
          <Button variant="secondary" block disabled>
            Current Plan
          </Button>
        ) : state.kind === 'scheduled' ? (
          <Button variant="secondary" block disabled>
            {state.startsAt ? `Starts ${formatShortDate(state.startsAt)}` : 'Scheduled'}
          </Button>
        ) : (
          <Button
            block
            variant={state.kind === 'current-other-period' ? 'secondary' : 'primary'}
            onClick={onSelect}
          >
            {state.kind === 'current-other-period' ? `Switch to ${period}` : `Select ${description.name}`}
          </Button>
        )}
        {state.kind === 'current-other-period' ? (
          <p className="plan-card__note">Your plan, billed {state.period} today</p>
        ) : null}
        {manage ? <div className="plan-card__manage">{manage}</div> : null}
      </div>
    </article>
  );
}

function PlanPrice({
  pricing,
  plan,
  period,
}: {
  pricing: Pricing | undefined;
  plan: PlanDescription['type'];
  period: BillingPeriod;
}) {
  if (!pricing) {
    return (
      <div className="plan-card__price plan-card__price--loading" aria-hidden="true">
        <span className="plan-card__price-placeholder" />
      </div>
    );
  }
  const price = pricing[plan][period];
  return (
    <div className="plan-card__price">
      <p>
        <span className="plan-card__amount">
          {formatMoney(perMonthPrice(pricing, plan, period), price.currency)}
        </span>
        <span className="plan-card__per">/month</span>
      </p>
      <p className="plan-card__billed">
        {period === 'yearly'
          ? `Billed yearly: ${formatMoney(price.amount, price.currency)}`
          : 'Billed monthly'}
      </p>
    </div>
  );
}

export function EnterpriseCard({ businessName }: { businessName: string }) {
  const titleId = useId();
  const subject = `Enterprise plan${businessName ? ` for ${businessName}` : ''}`;
  return (
    <article className="plan-card plan-card--enterprise" aria-labelledby={titleId}>
      <header className="split-header plan-card__header">
        <h3 id={titleId} className="plan-card__name">
          Enterprise
        </h3>
      </header>
      <p className="plan-card__tagline">For several locations, higher volumes and custom needs.</p>
      <div className="plan-card__price">
        <p>
          <span className="plan-card__amount">Custom</span>
        </p>
        <p className="plan-card__billed">Priced for your business</p>
      </div>
      <ul className="plan-card__features">
        <li>Unlimited waitlist customers</li>
        <li>Everything in Growth</li>
        <li>Alert limits set for your business</li>
      </ul>
      <div className="plan-card__action">
        <a
          className="button button--secondary button--block"
          href={`mailto:${ENTERPRISE_SALES_EMAIL}?subject=${encodeURIComponent(subject)}`}
        >
          Contact Sales
        </a>
        <p className="plan-card__note">{ENTERPRISE_SALES_EMAIL}</p>
      </div>
    </article>
  );
}
