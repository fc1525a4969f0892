import { planLabel } from '@waitlist/contract';
import { Link } from 'react-router';
import './cap-meter.css';

/** How close to the plan's cap one gets before the upgrade link shows. */
const NEAR_CAP_SHARE = 0.8;

/** "12 of 25 customers", with an upgrade link near or at the plan's cap. */
export function CapMeter({ count, cap, plan }: { count: number; cap: number | null; plan: string }) {
  if (cap === null) {
    return (
      <p className="cap-meter" data-testid="cap-meter">
        <strong>{count}</strong> customer{count === 1 ? '' : 's'} · no limit on the {planLabel(plan)}
      </p>
    );
  }
  const full = count >= cap;
  const near = count >= Math.ceil(cap * NEAR_CAP_SHARE);
  const percent = Math.min(100, Math.round((count / cap) * 100));
  return (
    <div
      className={`cap-meter${full ? ' cap-meter--full' : near ? ' cap-meter--near' : ''}`}
      data-testid="cap-meter"
    >
      <p>
        <strong>
          {count} of {cap}
        </strong>{' '}
        customers on the {planLabel(plan)}
        {near ? (
          <>
            {' · '}
            <Link to="/account?tab=plan">{full ? 'Upgrade to add more' : 'Upgrade for more room'}</Link>
          </>
        ) : null}
      </p>
      <div
        className="cap-meter__bar"
        role="progressbar"
        aria-label="Waitlist size"
        aria-valuemin={0}
        aria-valuemax={cap}
        aria-valuenow={Math.min(count, cap)}
        aria-valuetext={`${count} of ${cap} customers`}
      >
        <span style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
