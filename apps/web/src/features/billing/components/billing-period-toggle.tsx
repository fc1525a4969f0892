import type { BillingPeriod } from '@waitlist/contract';
import { useId } from 'react';
import './billing-period-toggle.css';

type BillingPeriodToggleProps = {
  value: BillingPeriod;
  onChange: (period: BillingPeriod) => void;
  /** "Save 20%": the same computed figure the cards show; null hides it (no saving). */
  savingLabel: string | null;
};

/** Monthly / Yearly as a radio group: arrow keys move between the two, as with any radio group. */
export function BillingPeriodToggle({ value, onChange, savingLabel }: BillingPeriodToggleProps) {
  const name = useId();
  return (
    <fieldset className="period-toggle">
      <legend className="visually-hidden">Billing period</legend>
      {(['monthly', 'yearly'] as const).map((period) => (
        <label key={period} className="period-toggle__option">
          <input
            type="radio"
            className="period-toggle__input"
            name={name}
            value={period}
            checked={value === period}
            onChange={() => onChange(period)}
          />
          <span className="period-toggle__label">{period === 'monthly' ? 'Monthly' : 'Yearly'}</span>
          {period === 'yearly' && savingLabel ? (
            <span className="period-toggle__saving">{savingLabel}</span>
          ) : null}
        </label>
      ))}
    </fieldset>
  );
}
