import type { Customer } from '@waitlist/contract';
import { Badge } from '../../../components/ui/badge.tsx';
import { customerStatusLabels, customerStatusTones } from './status.ts';

/**
 * A customer's state in one look. An opted-out customer is not really "Waiting" (no alert reaches them
 * until they text START), so that pair shows as "Opted out" alone.
 */
export function CustomerStatusBadges({ customer }: { customer: Customer }) {
  const hideStatus = customer.optedOut && customer.status === 'waiting';
  return (
    <>
      {hideStatus ? null : (
        <Badge tone={customerStatusTones[customer.status]}>{customerStatusLabels[customer.status]}</Badge>
      )}
      {customer.optedOut ? <Badge tone="danger">Opted out</Badge> : null}
      {customer.vip ? <Badge tone="primary">VIP</Badge> : null}
      {customer.pinned ? <Badge tone="info">Pinned first</Badge> : null}
      {customer.language === 'es' ? (
        <Badge tone="neutral">
          <span aria-hidden="true">ES</span>
          <span className="visually-hidden">Spanish</span>
        </Badge>
      ) : null}
    </>
  );
}
