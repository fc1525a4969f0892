import type { Opening } from '@waitlist/contract';
import { Badge } from '../../../components/ui/badge.tsx';

const labels = {
  open: { label: 'Open', tone: 'info' },
  filled: { label: 'Filled', tone: 'success' },
  expired: { label: 'Expired', tone: 'neutral' },
  closed: { label: 'Closed', tone: 'neutral' },
} as const;

export function OpeningStatusBadge({ status }: { status: Opening['status'] }) {
  return <Badge tone={labels[status].tone}>{labels[status].label}</Badge>;
}

/** Sent, delivered, replies: the live numbers of one alert. */
export function OpeningStats({ opening }: { opening: Opening }) {
  const { stats } = opening;
  return (
    <dl className="opening-stats">
      <div>
        <dt>Offered</dt>
        <dd>{stats.offered}</dd>
      </div>
      <div>
        <dt>Sent</dt>
        <dd>{stats.sent}</dd>
      </div>
      <div>
        <dt>Delivered</dt>
        <dd>{stats.delivered}</dd>
      </div>
      <div>
        <dt>Replies</dt>
        <dd>{stats.replies}</dd>
      </div>
    </dl>
  );
}
