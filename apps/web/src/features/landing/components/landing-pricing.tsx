import { ENTERPRISE_SALES_EMAIL, TRIAL_DAYS } from '@waitlist/contract';
import { Link } from 'react-router';
import { formatPrice, usePlanOffers } from './plan-prices.ts';

/** Starter and Growth side by side (stacked on a phone), then Enterprise on request. */
export function LandingPricing() {
  const planOffers = usePlanOffers();
  return (
    <section className="landing-section landing-pricing" aria-labelledby="landing-pricing-title">
      <h2 id="landing-pricing-title" className="landing-section__title">
        Simple pricing
      </h2>
      <p className="landing-section__lead">
        Every plan starts with a {TRIAL_DAYS}-day free trial. No card needed to start; cancel any time.
      </p>
      <ul className="landing-plans">
        {planOffers.map((plan) => (
          <li key={plan.type} className="landing-plan" aria-labelledby={`landing-plan-${plan.type}`}>
            <h3 id={`landing-plan-${plan.type}`} className="landing-plan__name">
              {plan.name}
            </h3>
            <p className="landing-plan__price">
              <span className="landing-plan__amount">{formatPrice(plan.monthly)}</span>
              <span className="landing-plan__per"> / month</span>
            </p>
            {plan.yearlySaving > 0 ? (
              <p className="landing-plan__yearly">
                or {formatPrice(plan.yearlyPerMonth)} / month billed yearly (save {plan.yearlySaving}%)
              </p>
            ) : null}
            <ul className="landing-plan__features">
              {plan.features.map((feature) => (
                <li key={feature}>{feature}</li>
              ))}
            </ul>
            <Link className="button button--secondary button--block" to="/register">
              Try {plan.name} free
            </Link>
          </li>
        ))}
      </ul>
      <p className="landing-pricing__enterprise">
        A longer waitlist or several locations? Enterprise plans on request:{' '}
        <a href={`mailto:${ENTERPRISE_SALES_EMAIL}`}>{ENTERPRISE_SALES_EMAIL}</a>
      </p>
    </section>
  );
}
