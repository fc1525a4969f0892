import type { Customer } from '@waitlist/contract';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { displayPhone } from '../../../lib/phone-display.ts';
import { useServiceChoices } from '../../../lib/services-and-staff.ts';
import { describePreference } from './preferences.ts';
import { CustomerStatusBadges } from './status-badges.tsx';
import './customer-row.css';

export type CustomerAction = 'edit' | 'remove' | 'text' | 'restore';

type CustomerRowProps = {
  customer: Customer;
  /** 1-based real place in line (a search shows it as it is); null for a booked or removed customer. */
  place: number | null;
  /** Null when the list cannot be reordered here (filtered, read-only). */
  move: { up: boolean; down: boolean; onMove: (direction: 'up' | 'down') => void } | null;
  readOnly: boolean;
  onAction: (action: CustomerAction, customer: Customer) => void;
};

/** The buttons that move a customer one place up or down the waitlist. */
const moves = [
  { direction: 'up', arrow: '↑' },
  { direction: 'down', arrow: '↓' },
] as const;

/** "Color · with Ana": what the customer waits for, when they said (issue 26). */
function useWaitsFor(customer: Customer): string | null {
  const { services, staff } = useServiceChoices();
  const service = services.find((entry) => entry.id === customer.serviceId)?.name;
  const member = staff.find((entry) => entry.id === customer.staffId)?.name;
  const parts = [service, member ? `with ${member}` : null].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : null;
}

const SINCE = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const SINCE_THIS_YEAR = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
/** "Nov 3", or "Nov 3, 2025" from another year. */
function waitingSince(iso: string): string {
  const date = new Date(iso);
  return (date.getFullYear() === new Date().getFullYear() ? SINCE_THIS_YEAR : SINCE).format(date);
}

export function CustomerRow({ customer, place, move, readOnly, onAction }: CustomerRowProps) {
  const removed = customer.status === 'removed';
  const waitsFor = useWaitsFor(customer);
  return (
    <li className="tile customer-row" aria-label={customer.name}>
      <span className={`round-icon customer-row__place${place === null ? ' customer-row__place--done' : ''}`}>
        {place === null ? (
          <>
            <span aria-hidden="true">{removed ? '–' : '✓'}</span>
            <span className="visually-hidden">
              {removed ? 'Removed, not in line' : 'Booked, no longer in line'}
            </span>
          </>
        ) : (
          <>
            <span className="visually-hidden">Place </span>
            {place}
          </>
        )}
      </span>
      <div className="customer-row__main">
        <div className="customer-row__title">
          <Link className="customer-row__name" to={`/waitlist/${customer.id}`}>
            {customer.name}
          </Link>
          <CustomerStatusBadges customer={customer} />
        </div>
        <a className="customer-row__phone" href={`tel:${customer.phone}`}>
          {displayPhone(customer.phone)}
        </a>
        {place !== null ? (
          <p className="customer-row__meta" data-testid="waiting-since">
            Waiting since {waitingSince(customer.createdAt)}
          </p>
        ) : null}
        {waitsFor ? (
          <p className="customer-row__meta" data-testid="waits-for">
            {waitsFor}
          </p>
        ) : null}
        {customer.preferences.length > 0 ? (
          <p className="customer-row__meta">{customer.preferences.map(describePreference).join(' · ')}</p>
        ) : null}
        {customer.notes ? <p className="customer-row__notes">{customer.notes}</p> : null}
      </div>
      <div className="customer-row__actions">
        {move ? (
          <fieldset className="customer-row__move">
            <legend className="visually-hidden">Move {customer.name}</legend>
            {moves.map(({ direction, arrow }) => (
              <button
                key={direction}
                type="button"
                className="icon-button"
                aria-label={`Move ${customer.name} ${direction}`}
                data-move={direction}
                data-customer={customer.id}
                disabled={!move[direction]}
                onClick={() => move.onMove(direction)}
              >
                <span aria-hidden="true">{arrow}</span>
              </button>
            ))}
          </fieldset>
        ) : null}
        {removed ? (
          <Button
            variant="secondary"
            aria-label={`Restore ${customer.name}`}
            disabled={readOnly}
            onClick={() => onAction('restore', customer)}
          >
            Restore
          </Button>
        ) : (
          <>
            <Button
              variant="secondary"
              aria-label={`Send a text to ${customer.name}`}
              disabled={readOnly || customer.optedOut}
              title={customer.optedOut ? 'Opted out: no texts until they text START' : undefined}
              onClick={() => onAction('text', customer)}
            >
              Text
            </Button>
            <Button
              variant="ghost"
              aria-label={`Edit ${customer.name}`}
              disabled={readOnly}
              onClick={() => onAction('edit', customer)}
            >
              Edit
            </Button>
            <Button
              variant="ghost"
              className="customer-row__remove"
              aria-label={`Remove ${customer.name}`}
              disabled={readOnly}
              onClick={() => onAction('remove', customer)}
            >
              Remove
            </Button>
          </>
        )}
      </div>
    </li>
  );
}
