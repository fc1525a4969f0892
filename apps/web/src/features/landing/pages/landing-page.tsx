import { TRIAL_DAYS } from '@waitlist/contract';
import { Link } from 'react-router';
import { BrandMark } from '../../../components/ui/brand-mark.tsx';
// The links below look like buttons; this page draws no <Button> that would bring the styles.
import '../../../components/ui/button.css';
import { LandingPricing } from '../components/landing-pricing.tsx';
import { formatPrice, lowestMonthly, usePlanOffers } from '../components/plan-prices.ts';
import { TextConversation } from '../components/text-conversation.tsx';
import './landing-page.css';

const steps = [
  {
    title: 'Keep a waitlist',
    text: 'Add customers who would like an earlier slot, or let them join from your link or poster.',
  },
  {
    title: 'Open a cancelled slot',
    text: 'When an appointment is cancelled, open the slot in the app. We text everyone waiting, from your own number.',
  },
  {
    title: 'The first YES gets it',
    text: 'The first customer to reply YES is booked. Everyone who replies later is told the slot is taken.',
  },
];

/**
 * `/` for a visitor (issue 27): what the product does, what it costs and how to start, in the first screen;
 * how it works and the plans below. A signed-in owner never sees it (routes.tsx sends them to /account).
 */
export function LandingPage() {
  const cheapest = lowestMonthly(usePlanOffers());
  return (
    <div className="landing">
      <header className="landing-bar">
        <div className="landing-bar__inner">
          <BrandMark />
          <Link className="button button--secondary landing-bar__login" to="/login">
            Log in
          </Link>
        </div>
      </header>

      <section className="landing-hero" aria-labelledby="landing-title">
        <div className="landing-hero__text">
          <p className="landing-hero__eyebrow">For salons, barbers, clinics and trades</p>
          <h1 id="landing-title" className="landing-hero__title">
            Fill cancelled appointments with one text
          </h1>
          <p className="landing-hero__lead">
            Keep a waitlist of customers who want an earlier slot. When someone cancels, we text everyone
            waiting, and the first to reply YES gets the slot.
          </p>
          <div className="landing-hero__actions">
            <Link className="button button--primary landing-hero__cta" to="/register">
              Start free trial
            </Link>
            <p className="landing-hero__price">
              {TRIAL_DAYS} days free, no card needed. Then from <strong>{formatPrice(cheapest)}/month</strong>
              .
            </p>
          </div>
        </div>
        <TextConversation />
      </section>

      <section className="landing-section" aria-labelledby="landing-how-title">
        <h2 id="landing-how-title" className="landing-section__title">
          How it works
        </h2>
        <ol className="landing-steps">
          {steps.map((step) => (
            <li key={step.title} className="landing-step">
              <h3 className="landing-step__title">{step.title}</h3>
              <p className="landing-step__text">{step.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <LandingPricing />

      <footer className="landing-footer">
        <Link className="button button--primary" to="/register">
          Start free trial
        </Link>
        <p>
          Already have an account? <Link to="/login">Log in</Link>
        </p>
      </footer>
    </div>
  );
}
